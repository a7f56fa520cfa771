/* The command line (options.c): fills `opt` (state.h), the faults and the variants, and settles
 * what they mean for one another.  Exits 0 after --help / --list-*, 2 on a usage error. */
#ifndef FAKEWM_OPTIONS_H
#define FAKEWM_OPTIONS_H

void options_parse(int argc, char **argv);

#endif
