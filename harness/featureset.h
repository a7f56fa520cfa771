/* What the compositor under test implements, established before any case runs: whether it is a
 * WM and whether it composites (its selections), how a resize makes it send a sync request (the
 * resize trigger), and the optional features of the texts (extended form, holding odd updates,
 * drawn messages, timings, fences).  Each optional feature is decided by a probe, a scenario of
 * its own in cases/probes/NAME.probe (the case language, with `feature:` and `absent:`): PASS
 * means present, FAIL or SKIP absent, UNRESOLVED unknown.  Cases `require` features: a compositor
 * without one SKIPs with the probe's plain reason ("basic form only: ..."); cases about honesty
 * check the claims in _NET_SUPPORTED against these observations.
 *
 * Features of one compositor command are probed once per run (the runner probes before its
 * workers start and hands them the table, --features FILE) and kept across restarts. */
#ifndef FRAMESYNC_FEATURESET_H
#define FRAMESYNC_FEATURESET_H

#include <stdbool.h>
#include <stdio.h>

#define FEATURES_MAX 32

enum feature_state { FEATURE_UNKNOWN, FEATURE_ABSENT, FEATURE_PRESENT };

struct feature {
    char name[32];
    enum feature_state state;
    char detail[512];   /* present: what was seen; absent: the plain reason; unknown: why */
    char source[64];    /* "probe", "selection", "derived", or the conf that named it */
    double ms;          /* how long its probe took */
};

struct features {
    char command[2048];
    struct feature f[FEATURES_MAX];
    int n;
    /* the resize triggers: `A resize` uses `trigger`, `via driven` / `hold` the others;
     * "" when there is none */
    char trigger[16], driven[16], held[16];
    char named_trigger[16];   /* resize-trigger: of compositors/NAME.conf or --resize-trigger */
    char listed[512];         /* the protocol's atoms it lists in _NET_SUPPORTED, space-separated */
    char oracle[1024];        /* the screen oracle the probes read ("none: WHY"), "" when not said */
    double probe_ms;
};

/* The names cases may use: the probes found in cases/probes/ plus the built-in ones (wm,
 * compositing, and the derived sync-requests, driven-resize, held-resize). */
void features_register_probe(const char *name);
bool features_known(const char *name);
/* The probed features a derived feature stands on (NULL-terminated; empty when it is not derived). */
const char *const *features_inputs(const char *name);

void features_init(struct features *fs, const char *command);
struct feature *features_get(struct features *fs, const char *name);
const struct feature *features_find(const struct features *fs, const char *name);
void features_set(struct features *fs, const char *name, enum feature_state state, const char *source,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A probe's outcome decides: the derived features and the triggers follow. */
void features_derive(struct features *fs);
/* A client run's declared features: the compositor's policy ($FRAMESYNC_CLIENT_POLICY).  The client
 * states (client-state-idle, client-state-animating) are probed (cases/client/probes/client-state-*):
 * the conf's `animates:` ($FRAMESYNC_CLIENT_ANIMATES) is only a hint, which
 * features_note_animates_hint writes beside a state found otherwise. */
void features_set_client_states(struct features *fs, const char *animates);
void features_note_animates_hint(struct features *fs, const char *animates);
/* Which of the protocol's atoms the compositor lists (from its _NET_SUPPORTED). */
void features_set_listed(struct features *fs, char *const *supported, int n);
/* A compositor that lists protocol atoms and was seen doing none of the protocol (`protocol`
 * absent): a run against it tested nothing it claims.  true with why. */
bool features_unbacked(const struct features *fs, char *why, size_t len);

/* Is the feature's outcome decided (present or absent) and the derived ones it stands on? */
bool features_decided(const struct features *fs, const char *name);

/* The table as comment lines ("# " prefix added by the caller through fn). */
void features_print(const struct features *fs, void (*line)(void *ctx, const char *text), void *ctx);
/* JSON object {"command": ..., "trigger": ..., "features": {NAME: {...}}} */
void features_json(const struct features *fs, FILE *f);

/* features.tsv: one line per feature, COMMAND<TAB>NAME<TAB>present|absent|unknown<TAB>SOURCE<TAB>
 * MS<TAB>DETAIL (tabs and newlines in text replaced by spaces), plus `trigger` lines.  Written
 * by a probing run, read with --features. */
void features_write_tsv(const struct features *fs, FILE *f);
/* Reads the table of `command` from the file; 1 found, 0 not in the file, -1 with err. */
int features_read_tsv(const char *path, const char *command, struct features *fs, char *err, size_t errlen);

#endif
