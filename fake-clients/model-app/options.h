/* model-app's command line (model-app.c says what each fault and variant does). */
#ifndef FRAMESYNC_MODEL_APP_OPTIONS_H
#define FRAMESYNC_MODEL_APP_OPTIONS_H

#include <stdbool.h>

/* each breaks one client clause (fault_info in options.c says which) */
enum fault { F_NONE, F_ANSWER_EARLY, F_WRONG_COUNTER, F_ODD_END, F_NO_DRAWN_WAIT, F_WRONG_FENCE, F_SAME_SIZE,
             F_LATE_COUNTER, F_ANSWER_ONLY_ANIMATING, F_NO_COUNTER, F_CHILD_SERVER_PAINT, F_CRASH_ON_REQUEST,
             F_CRASH_ON_UPDATE, F_ANSWER_BEFORE_CONFIGURE, F_EXTENDED_AFTER_MAP, F_COUNTER2_AFTER_MAP,
             F_ANSWER_ON_SWAP, F_NEVER_ANSWERS_FIRST, F_FROZEN_WITHOUT_DRAWN, F_NESTED_UPDATE };
/* behaviours the texts allow */
enum variant { V_NONE, V_FRAME_ANSWER, V_MAP_EVEN, V_PLUS3, V_SLOW_ANSWER, V_NEGATIVE_START, V_RAISE_OVER_NEW,
               V_MIN_SIZE, V_FIXED_SIZE, V_ONE_FRAME };

struct model_options {
    bool extended;          /* --form: extended (the default) or basic */
    int nfences;            /* --fences N (0 to 8) */
    int frame_ms;           /* --frame-ms: one update every MS (default 30) */
    int animate_ms;         /* --animate-ms: animates only that long after the map (0: for ever) */
    enum fault fault;
    enum variant variant;
};

/* Reads the arguments into o (its defaults first).  --list-faults prints each fault with the
 * clause it breaks and exits 0; a bad argument prints the usage and exits 2. */
void model_options_parse(int argc, char **argv, struct model_options *o);

#endif
