/* The variant table (variants.c): one row per `--variant NAME`, a behaviour the texts allow that
 * fake-wm does not do by default.  The code tests VARIANT(NAME) where that behaviour lives. */
#ifndef FAKEWM_VARIANTS_H
#define FAKEWM_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>

enum variant_id {
    V_KEYBOARD_ONLY,
    V_POINTER_ONLY,
    V_INTERACTIVE_ONLY,
    V_CONFIGURE_UNSERIALISED,
    V_RESTART_COUNTER,
    V_SYNC_AT_MAP,
    V_BASIC_ONLY,
    V_WM_ONLY,
    V_CM_ONLY,
    V_COMPRESS,
    V_FADE_IN,
    V_HOLD_1S,
    V_HOLD_4S,
    V_DELAYED_OTHERS,
    V_SLOW_REFRESH,
    V_NO_DRAWN,
    V_NO_FENCES,
    V_NO_TIMINGS,
    V_ANSWER_4S,
    V_DROP_STEPS,
    V_PER_OUTPUT_CLOCK,
    V_XWAYLAND_COMMITS,
    V_COUNT
};
struct variant_desc {
    enum variant_id id;
    const char *name;
    const char *what; /* what fake-wm then does differently */
    const char *like; /* the real compositors that behave like this */
};
extern const struct variant_desc variant_table[V_COUNT];
extern bool variant_on[V_COUNT];
#define VARIANT(x) (variant_on[V_##x])
int variant_lookup(const char *name);         /* index or -1 */
void variants_list(void);                     /* --list-variants */
void variants_names(char *buf, size_t n);     /* "a, b, ..." (all of them, for messages) */
void variants_describe(char *buf, size_t n);  /* the ones on: "a,b" or "none" */
void variants_check_conflicts(void);          /* exits 2 on a combination that cannot be */

#endif
