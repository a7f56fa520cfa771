// clients/qt6.conf: a Qt Quick window that animates for ever (a rotating square), so Qt 6's
// answers are seen while it draws.  Run by Qt 6's `qml` viewer on the software scene graph.
import QtQuick
import QtQuick.Window
Window {
    width: 320; height: 240; visible: true; title: "framesync qt6 animated"; color: "#203040"
    Rectangle {
        width: 80; height: 80; anchors.centerIn: parent; color: "#e0a030"
        RotationAnimation on rotation { from: 0; to: 360; duration: 2000; loops: Animation.Infinite }
    }
}
