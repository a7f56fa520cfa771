/* The fault table (faults.c): one row per `--inject FAULT`, each breaking exactly one clause of
 * cases/clauses.txt.  The code tests FAULT(NAME) where the behaviour it breaks lives. */
#ifndef FAKEWM_FAULTS_H
#define FAKEWM_FAULTS_H

#include <stdbool.h>
#include <stddef.h>

enum fault_id {
    F_SYNC_TO_ALL,
    F_WRONG_MESSAGE_TYPE,
    F_L4_NONZERO_BASIC,
    F_NO_TIMESTAMP,
    F_REQUEST_AFTER_CONFIGURE,
    F_VALUE_ZERO,
    F_VALUE_NOT_INCREASING,
    F_NO_SET_AT_MANAGE,
    F_NO_WAIT,
    F_SINGLE_COUNTER_EXTENDED,
    F_USE_FIRST_COUNTER,
    F_RESET_EXTENDED,
    F_NO_QUERY_INITIAL,
    F_IGNORE_SPONTANEOUS,
    F_ODD_VALUE,
    F_SMALL_INCREMENT,
    F_INCREMENT_100_DEFACTO,
    F_NO_L4_MARKER,
    F_PAINT_WHILE_ODD,
    F_PAINT_ODD_MAP,
    F_BLOCK_FOREVER,
    F_BLOCK_ALL,
    F_NO_DRAWN,
    F_DRAWN_BEFORE_PAINT,
    F_DRAWN_WRONG_VALUE,
    F_NO_FIRST_DRAWN,
    F_FIRST_DRAWN_AT_MAP,
    F_FIRST_DRAWN_BEFORE_MAP,
    F_DRAWN_DUPLICATE,
    F_DRAWN_MILLISECONDS,
    F_NO_FRAME_TIMINGS,
    F_NOT_ADVERTISED,
    F_ADVERTISED_NOT_SENT,
    F_WRONG_FENCE,
    F_NO_FENCE_WAIT,
    F_NO_OWN_FENCE,
    F_SYNC_NOT_ADVERTISED,
    F_DRAWN_TAIL_NONZERO,
    F_FRAME_DRAWN_TAIL_NONZERO,
    F_TIMINGS_WRONG_VALUE,
    F_COMPRESS_TO_FIRST,
    F_FENCES_NOT_ADVERTISED,
    F_L4_MARKER_DRAFT,
    F_HOSTILE_WEDGES,
    F_HOLD_KEPT_ACROSS_UNMAP,
    F_FREEZE_KEPT_ACROSS_UNMAP,
    F_UNSYNCED_AFTER_UNMAP,
    F_MAP_UNSYNCED_AFTER_UNMAP,
    F_DESTROYED_HOLD_LINGERS,
    F_NO_HOLD,
    F_HOLD_TIMEOUT_5MS,
    F_ADVERTISES_SYNC_SENDS_NONE,
    F_HOLDS_WHOLE_SCREEN,
    F_UNSYNCED_AFTER_TIMEOUT,
    F_UNSYNCED_AFTER_LATE_ANSWER,
    F_ANSWER_AFTER_RESIZE_IGNORED,
    F_UNWAITED_AFTER_TIMEOUT,
    F_CONSTRAINED_CONFIGURED_TWICE,
    F_REQUEST_WITHOUT_CONFIGURE,
    F_WAIT_ANY_CHANGE,
    F_DRAWN_PER_OUTPUT_COUNT,
    F_HOLD_KEPT_AFTER_REPARENT,
    F_REQUEST_TO_REPARENTED,
    F_ADOPTED_ODD_SHOWN,
    F_ADOPTED_UNSYNCED,
    F_REPLACED_KEEPS_HOLD,
    F_REPLACED_KEEPS_FREEZE,
    F_THAWED_BEFORE_ANSWER,
    F_SHOWN_WHILE_HELD,
    F_NEW_BUFFER_IN_OLD_GEOMETRY,
    F_FROZEN_AFTER_TIMEOUT,
    F_CRASH_DURING_PROBE,
    F_HANG_DURING_PROBE,
    F_COUNT
};
struct fault_desc {
    enum fault_id id;
    const char *name;
    const char *clause;
    const char *what;
};
extern const struct fault_desc fault_table[F_COUNT];
extern bool fault_on[F_COUNT];
#define FAULT(x) (fault_on[F_##x])
int fault_lookup(const char *name); /* index or -1 */
void faults_list(void);             /* --list-faults */
void faults_describe(char *buf, size_t n); /* "a,b" or "none" */

#endif
