# clients/tk.conf: a still Tk window (a label and a button).
wm title . "framesync tk"
label .l -text "framesync: a still Tk window"
button .b -text "quit" -command exit
pack .l .b -padx 20 -pady 10
