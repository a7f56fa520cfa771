/* fake-wm's log: one line per decision on stderr, prefixed "fake-wm: " (README.md: what it logs).
 * The bottom of fake-wm: it uses nothing else of it, and every other part may use it. */
#ifndef FAKEWM_LOG_H
#define FAKEWM_LOG_H

#include <stdbool.h>
#include <xcb/xcb.h>

void log_set_verbose(bool on); /* --verbose: logv lines too, each with CLOCK_MONOTONIC microseconds */
void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void logv(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* only with --verbose */
void log_x_error(const char *conn, const xcb_generic_error_t *e);

#endif
