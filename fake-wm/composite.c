/* stage-1 stub: compositing comes next */
#include "fakewm.h"
void comp_start(void) { logmsg("compositing not implemented yet"); }
void comp_handle_event(xcb_generic_event_t *ev) { (void)ev; }
void comp_window_mapped(struct win *w) { (void)w; }
void comp_window_unmapped(struct win *w) { (void)w; }
void comp_window_configured(struct win *w, bool r, bool m) { (void)w; (void)r; (void)m; }
void comp_window_destroyed(struct win *w) { (void)w; }
void comp_counter_changed(struct win *w, int64_t o, int64_t v) { (void)w; (void)o; (void)v; }
void comp_counter_gone(struct win *w) { (void)w; }
void comp_schedule(void) {}
void comp_tick(int64_t now) { (void)now; }
int64_t comp_next_deadline(void) { return -1; }
void fences_read(struct win *w) { (void)w; }
