/* model-app's command line: the faults and variants by name, --list-faults (options.h). */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fault_names[] = {"none", "answer-early", "wrong-counter", "odd-end", "no-drawn-wait",
                                          "wrong-fence-index", "same-size-unanswered", "late-counter",
                                          "answer-only-animating", "no-counter", "child-server-paint",
                                          "crash-on-request", "crash-on-update", "answer-before-configure",
                                          "extended-after-map", "counter2-after-map", "answer-on-swap",
                                          "never-answers-first", "frozen-without-drawn", "nested-update"};
/* What each fault breaks (`--list-faults`, read by the spec tools and the client self-test's
 * readers): the clause of cases/clauses.txt, and how. */
static const struct {
    const char *clause, *what;
} fault_info[] = {
    {"", ""},
    {"ewmh-1.5/basic/client-sets-counter", "answers a request before painting at the new size"},
    {"draft-2011/extended/client-answer", "answers an extended request on the wrong counter"},
    {"draft-2011/delimited/odd-even", "ends its updates at an odd value"},
    {"draft-2011/delimited/client-wait-drawn", "begins its next update without waiting for the drawn message"},
    {"draft-2011/fences/client-trigger", "triggers the fence at index (N / 2 + 1) % L"},
    {"ewmh-1.5/basic/client-sets-counter", "does not answer a request that keeps its size (a move)"},
    {"ewmh-1.5/basic/client-participation", "names its counter only after the map"},
    {"ewmh-1.5/basic/client-sets-counter", "answers only while it animates: idle, a request is never answered"},
    {"ewmh-1.5/basic/client-participation", "lists _NET_WM_SYNC_REQUEST but names no counter"},
    {"ewmh-1.5/basic/client-sets-counter", "answers after the server painted a child's background, not drawing itself"},
    {"client/crash", "abort()s when a sync request arrives"},
    {"client/crash", "abort()s when it begins its first update after its first frame"},
    {"ewmh-1.5/basic/client-sets-counter", "answers a request when it arrives, before the ConfigureNotify"},
    {"draft-2011/extended/client-initializes", "names its second (extended) counter only after the map"},
    {"draft-2011/extended/client-initializes", "creates its second counter, with its initial value, only after the map"},
    {"ewmh-1.5/basic/client-sets-counter", "answers only with its next swap (SDL_GL_SwapWindow), and has nothing to swap "
     "for 1200 ms after its map: a compositor that shows a window after its first answer shows it by its timeout"},
    {"ewmh-1.5/basic/client-sets-counter", "never answers the first request it gets (later ones as usual)"},
    {"draft-2011/delimited/client-wait-drawn", "waits for ever for a drawn message (no timeout, as GTK's frame clock): "
     "a missed one freezes it (a figure of client/policy/drawn-missed-stall, not a clause's FAIL)"},
    {"draft-2011/delimited/odd-even", "begins a second update inside every fourth one (odd -> odd), then ends it even"},
};

static const char *const variant_names[] = {"none", "frame-answer", "map-even", "plus3", "slow-answer",
                                            "negative-start", "raise-over-new", "min-size", "fixed-size",
                                            "one-frame"};

static int name_index(const char *const *names, size_t n, const char *v)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(names[k], v))
            return (int)k;
    return -1;
}

static void list_faults(void)
{
    for (size_t k = 1; k < sizeof fault_names / sizeof fault_names[0]; k++)
        printf("%s\t%s\t%s\n", fault_names[k], fault_info[k].clause, fault_info[k].what);
    exit(0);
}

void model_options_parse(int argc, char **argv, struct model_options *o)
{
    *o = (struct model_options){.extended = true, .frame_ms = 30};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--list-faults"))
            list_faults();
        else if (!strcmp(a, "--form") && v) {
            o->extended = !strcmp(v, "extended");
            if (!o->extended && strcmp(v, "basic"))
                goto usage;
        } else if (!strcmp(a, "--fences") && v) {
            o->nfences = atoi(v);
            if (o->nfences < 0 || o->nfences > 8)
                goto usage;
        } else if (!strcmp(a, "--frame-ms") && v) {
            o->frame_ms = atoi(v);
            if (o->frame_ms < 1)
                goto usage;
        } else if (!strcmp(a, "--animate-ms") && v) {
            o->animate_ms = atoi(v);
            if (o->animate_ms < 1)
                goto usage;
        } else if (!strcmp(a, "--variant") && v) {
            int k = name_index(variant_names, sizeof variant_names / sizeof variant_names[0], v);
            if (k < 0)
                goto usage;
            o->variant = (enum variant)k;
        } else if (!strcmp(a, "--fault") && v) {
            int k = name_index(fault_names, sizeof fault_names / sizeof fault_names[0], v);
            if (k < 0)
                goto usage;
            o->fault = (enum fault)k;
        } else {
            goto usage;
        }
        i++;
    }
    return;
usage:
    fprintf(stderr, "usage: model-app [--form basic|extended] [--fences N (0-8)] [--frame-ms MS] [--animate-ms MS]\n"
                    "                 [--fault F] [--variant V]\n"
                    "       model-app --list-faults\n"
                    "variants: frame-answer map-even plus3 slow-answer negative-start raise-over-new min-size fixed-size "
                    "one-frame\n"
                    "faults: answer-early wrong-counter odd-end no-drawn-wait wrong-fence-index "
                    "same-size-unanswered late-counter answer-only-animating no-counter child-server-paint\n"
                    "        crash-on-request crash-on-update answer-before-configure extended-after-map\n"
                    "        counter2-after-map answer-on-swap never-answers-first frozen-without-drawn\n"
                    "        nested-update\n");
    exit(2);
}
