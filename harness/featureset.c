#include "featureset.h"
#include "json-write.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

static char *probe_names[FEATURES_MAX];
static int nprobe_names;

/* Observed from the selections at start-up, derived from the trigger probes, or declared by the
 * command (the client states, `replace`: how a new instance replaces it, lifecycle.c). */
static const char *const builtin[] = {"wm", "compositing", "sync-requests", "driven-resize", "held-resize", "map-resize", "hold",
                                      "extended", "protocol", "client-basic-form", "replace", "policy-syncs-map",
                                      "policy-misses-drawn", "policy-basic-only"};
#define NBUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

/* The resize triggers in the order `A resize` prefers them: a ConfigureRequest is exact and
 * cheap; the interactive ones need XTEST; the map one withdraws the window. */
static const char *const triggers[] = {"configure", "keyboard", "pointer", "map"};
#define NTRIGGERS 4

void features_register_probe(const char *name)
{
    for (int i = 0; i < nprobe_names; i++)
        if (!strcmp(probe_names[i], name))
            return;
    if (nprobe_names < FEATURES_MAX)
        probe_names[nprobe_names++] = strdup(name);
}

/* Which probed features a derived one stands on (NULL-terminated; empty for the others). */
const char *const *features_inputs(const char *name)
{
    static const char *const trig[] = {"trigger-configure", "trigger-keyboard", "trigger-pointer", "trigger-map", NULL};
    static const char *const hold[] = {"hold-update", "hold-map", NULL};
    static const char *const ext[] = {"extended-counter", "extended-marker", "trigger-configure", "trigger-keyboard",
                                      "trigger-pointer", "trigger-map", NULL};
    static const char *const protocol[] = {"trigger-configure", "trigger-keyboard", "trigger-pointer", "trigger-map",
                                           "hold-update", "hold-map", "sync-drawn", "frame-drawn", "frame-timings",
                                           "fences", NULL};
    static const char *const client_form[] = {"client-counter", "client-extended", NULL};
    static const char *const none[] = {NULL};
    if (!strcmp(name, "sync-requests") || !strcmp(name, "driven-resize") || !strcmp(name, "held-resize") ||
        !strcmp(name, "map-resize"))
        return trig;
    if (!strcmp(name, "hold"))
        return hold;
    if (!strcmp(name, "extended"))
        return ext;
    if (!strcmp(name, "protocol"))
        return protocol;
    if (!strcmp(name, "client-basic-form"))
        return client_form;
    return none;
}

bool features_known(const char *name)
{
    for (int i = 0; i < NBUILTIN; i++)
        if (!strcmp(builtin[i], name))
            return true;
    for (int i = 0; i < nprobe_names; i++)
        if (!strcmp(probe_names[i], name))
            return true;
    return false;
}

/* ---- the table ---- */

void features_init(struct features *fs, const char *command)
{
    char named[sizeof fs->named_trigger];
    snprintf(named, sizeof named, "%s", fs->named_trigger);
    memset(fs, 0, sizeof *fs);
    snprintf(fs->command, sizeof fs->command, "%s", command);
    snprintf(fs->named_trigger, sizeof fs->named_trigger, "%s", named);
}

struct feature *features_get(struct features *fs, const char *name)
{
    for (int i = 0; i < fs->n; i++)
        if (!strcmp(fs->f[i].name, name))
            return &fs->f[i];
    if (fs->n == FEATURES_MAX)
        return NULL;
    struct feature *f = &fs->f[fs->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

const struct feature *features_find(const struct features *fs, const char *name)
{
    for (int i = 0; i < fs->n; i++)
        if (!strcmp(fs->f[i].name, name))
            return &fs->f[i];
    return NULL;
}

void features_set(struct features *fs, const char *name, enum feature_state state, const char *source,
                  const char *fmt, ...)
{
    struct feature *f = features_get(fs, name);
    if (!f)
        return;
    f->state = state;
    snprintf(f->source, sizeof f->source, "%s", source);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
}

static enum feature_state state_of(const struct features *fs, const char *name)
{
    const struct feature *f = features_find(fs, name);
    return f ? f->state : FEATURE_UNKNOWN;
}

static bool trigger_present(const struct features *fs, const char *t)
{
    char name[32];
    snprintf(name, sizeof name, "trigger-%s", t);
    return state_of(fs, name) == FEATURE_PRESENT;
}

/* The first of `among` that works (or the named one, when it is among them). */
static void pick(const struct features *fs, const char *const *among, int n, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < n; i++)
        if (fs->named_trigger[0] && !strcmp(fs->named_trigger, among[i])) {
            snprintf(out, len, "%s", among[i]);
            return;
        }
    for (int i = 0; i < n; i++)
        if (trigger_present(fs, among[i])) {
            snprintf(out, len, "%s", among[i]);
            return;
        }
}

/* What the trigger probes say about a set of triggers, for a reason text. */
static void describe_triggers(const struct features *fs, const char *const *among, int n, char *out, size_t len)
{
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < n && o < len; i++) {
        char name[32];
        snprintf(name, sizeof name, "trigger-%s", among[i]);
        const struct feature *f = features_find(fs, name);
        o += (size_t)snprintf(out + o, len - o, "%s%s: %s", i ? "; " : "", among[i],
                              !f ? "not probed" : f->state == FEATURE_PRESENT ? "yes" : f->detail);
    }
}

/* A derived feature: present when one of the triggers works; unknown when none works but a
 * probe of one of them could not decide. */
static void derive_one(struct features *fs, const char *name, const char *const *among, int n, const char *chosen,
                       const char *what)
{
    char why[1024];
    describe_triggers(fs, among, n, why, sizeof why);
    bool unknown = false, unobservable = true; /* every undecided trigger cannot be driven or seen here */
    for (int i = 0; i < n; i++) {
        char t[32];
        snprintf(t, sizeof t, "trigger-%s", among[i]);
        const struct feature *f = features_find(fs, t);
        bool u = !f || f->state == FEATURE_UNKNOWN;
        unknown |= u;
        unobservable &= !u || (f && !strcmp(f->source, "unobservable"));
    }
    if (chosen[0])
        features_set(fs, name, FEATURE_PRESENT, "derived", "%s: %s", what, chosen);
    else if (unknown && unobservable)
        features_set(fs, name, FEATURE_UNKNOWN, "unobservable", "not decided: no trigger the suite can make here "
                     "was seen to sync, and the others cannot be made or seen here (%s)", why);
    else if (unknown)
        features_set(fs, name, FEATURE_UNKNOWN, "derived", "a probe of a trigger could not decide (%s)", why);
    else
        features_set(fs, name, FEATURE_ABSENT, "derived", "it sends no sync request for %s the suite can make (%s)",
                     what, why);
}

/* present when one of `any` is; unknown when none is but one could not be decided; the details
 * of the inputs make the text either way */
static void derive_any(struct features *fs, const char *name, const char *const *any, int n, const char *absent_prefix)
{
    char why[1024] = "";
    size_t o = 0;
    bool unknown = false, unobservable = true; /* every unknown input cannot be seen here */
    for (int i = 0; i < n; i++) {
        const struct feature *f = features_find(fs, any[i]);
        if (f && f->state == FEATURE_PRESENT) {
            features_set(fs, name, FEATURE_PRESENT, "derived", "%s", f->detail);
            return;
        }
        bool u = !f || f->state == FEATURE_UNKNOWN;
        unknown |= u;
        unobservable &= !u || (f && !strcmp(f->source, "unobservable"));
        if (f && !o) /* the first input says it plainly; the others are in the table */
            o += (size_t)snprintf(why + o, sizeof why - o, "%s", f->detail);
    }
    if (unknown)
        features_set(fs, name, FEATURE_UNKNOWN, unobservable ? "unobservable" : "derived", "not decided (%s)", why);
    else
        features_set(fs, name, FEATURE_ABSENT, "derived", "%s (%s)", absent_prefix, why);
}

/* Did the compositor's trigger probes run (cases/probes/)?  Not in a client run (--client), whose
 * probes are the application's (cases/client/probes/): then nothing is derived from them. */
static bool triggers_probed(const struct features *fs)
{
    for (int i = 0; i < fs->n; i++)
        if (!strncmp(fs->f[i].name, "trigger-", 8))
            return true;
    return false;
}

/* The protocol atoms a compositor may list, and the features that are doing them. */
static const char *const protocol_atoms[] = {"_NET_WM_SYNC_REQUEST", "_NET_WM_SYNC_REQUEST_COUNTER",
                                             "_NET_WM_SYNC_DRAWN", "_NET_WM_FRAME_DRAWN", "_NET_WM_FRAME_TIMINGS",
                                             "_NET_WM_SYNC_FENCES"};
static const char *const protocol_features[] = {"sync-requests", "hold", "sync-drawn", "frame-drawn", "frame-timings",
                                                "fences"};
#define NPROTOCOL 6

/* `protocol`: does the compositor take part in the protocol in any way the probes can see? */
static void derive_protocol(struct features *fs)
{
    char did[512] = "", unseen[512] = "";
    size_t o = 0, u = 0;
    bool unknown = false, unobservable = true;
    for (int i = 0; i < NPROTOCOL; i++) {
        const struct feature *f = features_find(fs, protocol_features[i]);
        if (f && f->state == FEATURE_PRESENT)
            o += (size_t)snprintf(did + o, sizeof did - o, "%s%s", o ? ", " : "", protocol_features[i]);
        bool undecided = !f || f->state == FEATURE_UNKNOWN;
        unknown |= undecided;
        if (undecided && f && !strcmp(f->source, "unobservable"))
            u += (size_t)snprintf(unseen + u, sizeof unseen - u, "%s%s", u ? ", " : "", protocol_features[i]);
        else if (undecided)
            unobservable = false;
    }
    if (o)
        features_set(fs, "protocol", FEATURE_PRESENT, "derived", "it does %s", did);
    else if (unknown && unobservable)
        features_set(fs, "protocol", FEATURE_UNKNOWN, "unobservable", "not decided: it was seen doing none of what "
                     "can be seen here, and %s cannot be made or seen here", unseen);
    else if (unknown)
        features_set(fs, "protocol", FEATURE_UNKNOWN, "derived", "not decided: a probe could not decide");
    else
        features_set(fs, "protocol", FEATURE_ABSENT, "derived",
                     "it was seen doing none of the protocol: no sync request for any resize the suite can make, no "
                     "hold of an unfinished update, no drawn or timings message, no wait on a fence");
}

void features_set_listed(struct features *fs, char *const *supported, int n)
{
    size_t o = 0;
    fs->listed[0] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < NPROTOCOL; k++)
            if (!strcmp(supported[i], protocol_atoms[k]) && o < sizeof fs->listed)
                o += (size_t)snprintf(fs->listed + o, sizeof fs->listed - o, "%s%s", o ? " " : "", supported[i]);
}

bool features_unbacked(const struct features *fs, char *why, size_t len)
{
    const struct feature *p = features_find(fs, "protocol");
    if (!fs->listed[0] || !p || p->state != FEATURE_ABSENT)
        return false;
    snprintf(why, len, "`%s` lists %s in _NET_SUPPORTED but %s", fs->command, fs->listed, p->detail + strlen("it "));
    return true;
}

/* `client-basic-form`: the application under test names one counter, so a compositor of every
 * profile sends it EWMH's basic request (with two, one of the later texts sends the extended form
 * instead, whose answer is another clause).  Only in a client run, where its probes are in the
 * table; an undecided input is copied as it is (its source too: a probe the application crashed
 * in makes the cases that need the form the crash's FAILs). */
static void derive_client_form(struct features *fs)
{
    const struct feature *counter = features_find(fs, "client-counter");
    const struct feature *ext = features_find(fs, "client-extended");
    if (!counter || !ext)
        return;
    const struct feature *undecided = counter->state == FEATURE_UNKNOWN ? counter
                                      : counter->state == FEATURE_PRESENT && ext->state == FEATURE_UNKNOWN ? ext
                                                                                                            : NULL;
    if (undecided)
        features_set(fs, "client-basic-form", FEATURE_UNKNOWN, undecided->source, "%s", undecided->detail);
    else if (counter->state == FEATURE_ABSENT) /* no request at all: say why, not "extended" */
        features_set(fs, "client-basic-form", FEATURE_ABSENT, "derived", "%s", counter->detail);
    else if (ext->state == FEATURE_PRESENT)
        features_set(fs, "client-basic-form", FEATURE_ABSENT, "derived",
                     "extended form (%s): a compositor of the later texts sends it the extended request", ext->detail);
    else
        features_set(fs, "client-basic-form", FEATURE_PRESENT, "derived", "one counter: %s", counter->detail);
}

void features_derive(struct features *fs)
{
    derive_client_form(fs);
    if (!triggers_probed(fs))
        return;
    static const char *const driven[] = {"keyboard", "pointer", "map"};
    static const char *const held[] = {"keyboard", "pointer"};
    pick(fs, triggers, NTRIGGERS, fs->trigger, sizeof fs->trigger);
    pick(fs, driven, 3, fs->driven, sizeof fs->driven);
    pick(fs, held, 2, fs->held, sizeof fs->held);
    derive_one(fs, "sync-requests", triggers, NTRIGGERS, fs->trigger, "any resize");
    derive_one(fs, "driven-resize", driven, 3, fs->driven, "a resize it drives itself");
    derive_one(fs, "held-resize", held, 2, fs->held, "an interactive resize that stays open");
    /* `A resize` by a new map: the window is withdrawn, configured and mapped again, so its new
     * size reaches it from its own ConfigureWindow of a withdrawn window, before any request */
    const struct feature *sr = features_find(fs, "sync-requests");
    if (!strcmp(fs->trigger, "map"))
        features_set(fs, "map-resize", FEATURE_PRESENT, "derived", "`A resize` withdraws the window, configures "
                     "it and maps it again: the only resize it syncs that the suite can make here");
    else if (fs->trigger[0] || (sr && sr->state == FEATURE_ABSENT))
        features_set(fs, "map-resize", FEATURE_ABSENT, "derived", "`A resize` is a resize of a mapped window (%s)",
                     fs->trigger[0] ? fs->trigger : "none syncs");
    else
        features_set(fs, "map-resize", FEATURE_UNKNOWN, sr ? sr->source : "derived", "%s",
                     sr ? sr->detail : "the trigger probes did not run");
    const struct feature *wm = features_find(fs, "wm");
    static const char *const need_wm[] = {"sync-requests", "driven-resize", "held-resize"};
    for (int i = 0; i < 3 && wm && wm->state == FEATURE_ABSENT; i++)
        /* the cause, not the symptom: a compositor without a WM sends no request of any kind */
        features_set(fs, need_wm[i], FEATURE_ABSENT, "derived", "%s, so it sends no sync request", wm->detail);
    static const char *const holds[] = {"hold-update", "hold-map"};
    derive_any(fs, "hold", holds, 2, "it does not hold delimited updates");
    /* the extended form is a form of the requests: holding on the second counter is no sign of it,
     * since every compositor shown two counters should hold (which counter a WM uses for its
     * requests is the draft's option; holding an unfinished update is not) */
    static const char *const ext[] = {"extended-counter", "extended-marker"};
    sr = features_find(fs, "sync-requests");
    if (sr && sr->state == FEATURE_ABSENT)
        /* no request at all: say why, not "basic form only" */
        features_set(fs, "extended", FEATURE_ABSENT, "derived", "%s", sr->detail);
    else
        derive_any(fs, "extended", ext, 2, "basic form only: with two counters it used the first as a basic-form counter");
    derive_protocol(fs);
}

/* The compositor's policy in a client run (--policy, fake-wm/policies.c), as the cases that only
 * apply under some policies ask for it: one that syncs a window at its map, one that leaves a drawn
 * message out. */
static void set_policy_features(struct features *fs, const char *policy)
{
    const char *p = policy ? policy : "reference";
    bool syncs_map = !strcmp(p, "show-after-first-answer") || !strcmp(p, "sync-at-map");
    features_set(fs, "policy-syncs-map", syncs_map ? FEATURE_PRESENT : FEATURE_ABSENT, "declared",
                 syncs_map ? "policy %s: a sync request at the map of a window with a counter"
                           : "policy %s sends no sync request at a window's map (show-after-first-answer and "
                             "sync-at-map do)", p);
    bool basic = !strcmp(p, "sync-at-map"); /* compiz: no extended form (fake-wm --variant basic-only) */
    features_set(fs, "policy-basic-only", basic ? FEATURE_PRESENT : FEATURE_ABSENT, "declared",
                 basic ? "policy %s sends basic-form requests only (compiz): the extended answer is never asked"
                       : "policy %s sends the extended form where the profile has it", p);
    bool misses = !strcmp(p, "drawn-missed-once");
    features_set(fs, "policy-misses-drawn", misses ? FEATURE_PRESENT : FEATURE_ABSENT, "declared",
                 misses ? "policy %s: one update's drawn message never comes"
                        : "policy %s sends every drawn message (drawn-missed-once leaves one out)", p);
}

void features_set_client_states(struct features *fs, const char *animates)
{
    (void)animates; /* a hint since the states are probed: features_note_animates_hint */
    set_policy_features(fs, getenv("FRAMESYNC_CLIENT_POLICY"));
}

/* One state's feature against the hint: "; its conf says animates: WORD" where they differ. */
static void note_hint(struct features *fs, const char *name, bool hinted, const char *word)
{
    struct feature *f = features_get(fs, name);
    if (!f || f->state == FEATURE_UNKNOWN || (f->state == FEATURE_PRESENT) == hinted ||
        strstr(f->detail, "its conf says animates:")) /* taken from the first profile's table, said there */
        return;
    size_t n = strlen(f->detail);
    snprintf(f->detail + n, sizeof f->detail - n, " (found, although its conf says animates: %s)", word);
}

void features_note_animates_hint(struct features *fs, const char *animates)
{
    if (!animates || !*animates)
        return;
    note_hint(fs, "client-state-idle", strcmp(animates, "forever") != 0, animates);
    note_hint(fs, "client-state-animating", strcmp(animates, "no") != 0, animates);
}

bool features_decided(const struct features *fs, const char *name)
{
    const struct feature *f = features_find(fs, name);
    return f && f->state != FEATURE_UNKNOWN;
}

/* ---- output ---- */

static const char *state_word(enum feature_state s)
{
    return s == FEATURE_PRESENT ? "yes" : s == FEATURE_ABSENT ? "no" : "unknown";
}

/* The table reads from what the compositor is to what it does: roles, triggers, forms, holding,
 * messages; features of other probes follow in their order. */
static int display_rank(const char *name)
{
    static const char *const order[] = {"wm", "compositing", "trigger-configure", "trigger-keyboard", "trigger-pointer",
                                        "trigger-map", "sync-requests", "driven-resize", "held-resize", "map-resize",
                                        "extended-counter", "extended-marker", "extended",
                                        "hold-update", "hold-map", "hold", "sync-drawn", "frame-drawn",
                                        "frame-timings", "fences", "protocol"};
    for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
        if (!strcmp(order[i], name))
            return i;
    return 100;
}

static int by_rank(const void *a, const void *b)
{
    const struct feature *x = a, *y = b;
    int d = display_rank(x->name) - display_rank(y->name);
    return d ? d : strcmp(x->name, y->name);
}

void features_print(const struct features *fs, void (*line)(void *ctx, const char *text), void *ctx)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "features of `%s` (probed in %.1f s; how each is decided: cases/probes/NAME.probe):",
             fs->command, fs->probe_ms / 1000.0);
    line(ctx, buf);
    struct feature sorted[FEATURES_MAX];
    memcpy(sorted, fs->f, (size_t)fs->n * sizeof *sorted);
    qsort(sorted, (size_t)fs->n, sizeof *sorted, by_rank);
    for (int i = 0; i < fs->n; i++) {
        const struct feature *f = &sorted[i];
        snprintf(buf, sizeof buf, "  %-18s %-7s %s", f->name, state_word(f->state), f->detail);
        line(ctx, buf);
    }
    if (fs->oracle[0]) {
        snprintf(buf, sizeof buf, "  screen oracle: %s", fs->oracle);
        line(ctx, buf);
    }
    if (!triggers_probed(fs))
        return;
    snprintf(buf, sizeof buf, "  resize trigger: %s%s (driven: %s, held open: %s)", fs->trigger[0] ? fs->trigger : "none",
             fs->named_trigger[0] ? " (named by the configuration)" : "", fs->driven[0] ? fs->driven : "none",
             fs->held[0] ? fs->held : "none");
    line(ctx, buf);
}

void features_json(const struct features *fs, FILE *f)
{
    fputs("{\"command\": ", f);
    json_string(f, fs->command);
    fputs(", \"trigger\": ", f);
    json_string(f, fs->trigger);
    fputs(", \"driven\": ", f);
    json_string(f, fs->driven);
    fputs(", \"held\": ", f);
    json_string(f, fs->held);
    fputs(", \"listed\": ", f);
    json_string(f, fs->listed);
    fputs(", \"screen_oracle\": ", f);
    json_string(f, fs->oracle);
    char unbacked[1024] = "";
    features_unbacked(fs, unbacked, sizeof unbacked);
    fputs(", \"unbacked\": ", f);
    json_string(f, unbacked);
    fprintf(f, ", \"probe_ms\": %.1f, \"features\": {", fs->probe_ms);
    for (int i = 0; i < fs->n; i++) {
        const struct feature *x = &fs->f[i];
        fprintf(f, "%s", i ? ", " : "");
        json_string(f, x->name);
        fprintf(f, ": {\"present\": %s, \"detail\": ",
                x->state == FEATURE_PRESENT ? "true" : x->state == FEATURE_ABSENT ? "false" : "null");
        json_string(f, x->detail);
        fputs(", \"source\": ", f);
        json_string(f, x->source);
        fprintf(f, ", \"ms\": %.1f}", x->ms);
    }
    fputs("}}", f);
}

static void put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void features_write_tsv(const struct features *fs, FILE *f)
{
    for (int i = 0; i < fs->n; i++) {
        const struct feature *x = &fs->f[i];
        put_text(f, fs->command);
        fprintf(f, "\t%s\t%s\t%s\t%.1f\t", x->name,
                x->state == FEATURE_PRESENT ? "present" : x->state == FEATURE_ABSENT ? "absent" : "unknown",
                x->source, x->ms);
        put_text(f, x->detail);
        fputc('\n', f);
    }
    put_text(f, fs->command);
    fprintf(f, "\t-\tprobe-ms\t-\t%.1f\t\n", fs->probe_ms);
    put_text(f, fs->command);
    fprintf(f, "\t-\tlisted\t-\t0\t%s\n", fs->listed);
    if (fs->oracle[0]) {
        put_text(f, fs->command);
        fputs("\t-\toracle\t-\t0\t", f);
        put_text(f, fs->oracle);
        fputc('\n', f);
    }
}

static char *next_field(char **p)
{
    char *s = *p;
    if (!s)
        return NULL;
    char *tab = strchr(s, '\t');
    if (tab) {
        *tab = 0;
        *p = tab + 1;
    } else {
        *p = NULL;
    }
    return s;
}

int features_read_tsv(const char *path, const char *command, struct features *fs, char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    features_init(fs, command);
    char line[8192];
    int lineno = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
        char *p = line;
        char *cmd = next_field(&p), *name = next_field(&p), *state = next_field(&p), *source = next_field(&p),
             *ms = next_field(&p), *detail = p;
        if (!cmd || !name || !state || !source || !ms || !detail) {
            snprintf(err, errlen, "%s:%d: expected COMMAND, NAME, STATE, SOURCE, MS and DETAIL separated by tabs",
                     path, lineno);
            fclose(f);
            return -1;
        }
        char want[sizeof fs->command];
        snprintf(want, sizeof want, "%s", command);
        for (char *c = want; *c; c++)
            if (*c == '\t' || *c == '\n' || *c == '\r')
                *c = ' ';
        if (strcmp(cmd, want))
            continue;
        found = 1;
        if (!strcmp(name, "-")) { /* the table's own lines: how long probing took, what it lists */
            if (!strcmp(state, "listed"))
                snprintf(fs->listed, sizeof fs->listed, "%s", detail);
            else if (!strcmp(state, "oracle"))
                snprintf(fs->oracle, sizeof fs->oracle, "%s", detail);
            else
                fs->probe_ms = strtod(ms, NULL);
            continue;
        }
        enum feature_state st = !strcmp(state, "present") ? FEATURE_PRESENT
                                : !strcmp(state, "absent") ? FEATURE_ABSENT : FEATURE_UNKNOWN;
        if (st == FEATURE_UNKNOWN && strcmp(state, "unknown")) {
            snprintf(err, errlen, "%s:%d: expected present, absent or unknown, found `%s`", path, lineno, state);
            fclose(f);
            return -1;
        }
        features_set(fs, name, st, source, "%s", detail);
        struct feature *x = features_get(fs, name);
        if (x)
            x->ms = strtod(ms, NULL);
    }
    fclose(f);
    if (found)
        features_derive(fs);
    return found;
}
