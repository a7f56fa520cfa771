/* The JSON writer the harness's outputs share (results.json: results.c, and the feature tables in
 * it: featureset.c): a string, quoted and escaped.  It calls nothing of theirs. */
#ifndef FRAMESYNC_JSON_WRITE_H
#define FRAMESYNC_JSON_WRITE_H

#include <stdio.h>

/* s (NULL: "") as a JSON string: ", \ and control characters escaped, the rest byte for byte */
void json_string(FILE *f, const char *s);

#endif
