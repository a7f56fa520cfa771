/* The benchmark injections (injections.c): `--inject NAME=VALUE`, known delays that break no
 * clause (so not faults); they set the options paint_delay_ms, drawn_delay_ms, compress_every. */
#ifndef FAKEWM_INJECTIONS_H
#define FAKEWM_INJECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

bool injection_parse(const char *arg);          /* false: not one of them; exits 2 on a bad value */
void injections_describe(char *buf, size_t n);  /* "paint-delay=50,..." or "none" */
void injections_help(FILE *f);

#endif
