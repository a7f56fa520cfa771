// clients/qt6-still.conf: a Qt Quick window that draws once and stays still.
import QtQuick
import QtQuick.Window
Window {
    width: 320; height: 240; visible: true; title: "framesync qt6 still"; color: "#203040"
    Text { anchors.centerIn: parent; text: "framesync: a still Qt Quick window"; color: "white" }
}
