/* Notes to the observer (policynotes.c): what the compositor did that no X request of its shows,
 * so that the client cases can time it from the one stream app-observer records. */
#ifndef FAKEWM_POLICYNOTES_H
#define FAKEWM_POLICYNOTES_H

#include <stdint.h>
#include "win.h"

void note_first_shown(const struct win *w);               /* its first paint since its map */
void note_drawn_missed(const struct win *w, int64_t value); /* drawn-missed-once left this one out */

#endif
