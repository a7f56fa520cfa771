#include "pngwrite.h"

#include <png.h>
#include <stdio.h>

int png_write_rgb(const char *path, int width, int height, const uint8_t *rgb, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        snprintf(err, errlen, "libpng could not write %s", path);
        png_destroy_write_struct(&png, &info);
        fclose(f);
        remove(path);
        return -1;
    }
    png_init_io(png, f);
    png_set_compression_level(png, 1); /* the screens are mostly flat colour: fast is small enough */
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)(rgb + (size_t)y * 3 * (size_t)width));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        remove(path);
        return -1;
    }
    return 0;
}
