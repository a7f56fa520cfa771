/* PNG files of what the screen showed (libpng), for the reports' failure screenshots. */
#ifndef FRAMESYNC_PNGWRITE_H
#define FRAMESYNC_PNGWRITE_H

#include <stddef.h>
#include <stdint.h>

/* Writes width x height 8-bit RGB pixels (rows of 3 * width bytes) to path; -1 with err. */
int png_write_rgb(const char *path, int width, int height, const uint8_t *rgb, char *err, size_t errlen);

#endif
