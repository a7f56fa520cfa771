/* The line protocol every input helper speaks (the `input:` of a conf, harness/input-path.h), the
 * part that does not depend on the compositor: standard input is read a line at a time, each line
 * split into words, `quit` and blank or `#` lines handled here, and every other command answered
 * `done cmd=WORD` or `error cmd=WORD msg=WHAT` on standard output once the helper's own function
 * made it and the compositor took it.  tools/mutter-input.c (mutter's RemoteDesktop),
 * tools/kwin-input.c (KWin's fake input) and tools/sway-input.c (wlroots' virtual devices) each bring
 * that function. */
#ifndef FRAMESYNC_INPUT_PROTO_H
#define FRAMESYNC_INPUT_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#define IPR_LINE_MAX 1024
#define IPR_WORDS 8

/* Makes command w[0] (n words) and waits until the compositor took it: 1 done; 0 refused, with msg
 * (the helper goes on); -1 failed, with msg, and the helper is to end (its connection is gone). */
typedef int (*ipr_command_fn)(void *ctx, char **w, int n, char *msg, size_t len);

/* The words of a command: an integer (decimal or 0x hex) in min..max, `press` or `release`, and
 * the evdev code of a key an interactive resize uses by its X keysym (the arrows, Return, Shift_L;
 * 0 for any other). */
bool ipr_int(const char *word, long min, long max, long *out);
bool ipr_state(const char *word, bool *pressed);
unsigned ipr_evdev_of_keysym(long keysym);

/* Answers the commands of standard input until `quit` or its end (true), or until a command ends the
 * helper (false). */
bool ipr_serve(ipr_command_fn command, void *ctx);

#endif
