# clients/wx.conf and wx-still.conf: a wxPython (wxWidgets 3.2, wxGTK 3) frame.
# `wx-demo.py animate` repaints a panel from a 60 Hz wx.Timer (Refresh(): a GTK redraw request,
# so each tick is a frame of GTK 3's frame clock), for ever; `wx-demo.py still` shows a label and
# draws only when shown, resized or given input.
import sys
import time

import wx


class AnimatedPanel(wx.Panel):
    """Fills itself with a colour that changes every tick of its timer."""

    def __init__(self, parent):
        super().__init__(parent)
        self.Bind(wx.EVT_PAINT, self.on_paint)
        self.timer = wx.Timer(self)
        self.Bind(wx.EVT_TIMER, lambda _event: self.Refresh(), self.timer)
        self.timer.Start(16)

    def on_paint(self, _event):
        phase = time.monotonic() % 1.0
        dc = wx.PaintDC(self)
        dc.SetBackground(wx.Brush(wx.Colour(int(255 * phase), 80, int(255 * (1 - phase)))))
        dc.Clear()


def main(argv):
    if len(argv) != 2 or argv[1] not in ("animate", "still"):
        sys.stderr.write("usage: wx-demo.py animate|still\n")
        return 2
    app = wx.App(False)
    frame = wx.Frame(None, title="framesync wx", size=(320, 200))
    if argv[1] == "animate":
        AnimatedPanel(frame)
    else:
        wx.StaticText(wx.Panel(frame), label="framesync: a still wxWidgets frame", pos=(20, 20))
    frame.Show()
    app.MainLoop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
