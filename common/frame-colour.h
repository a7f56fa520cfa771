/* Frame colours: how a pixel on screen tells which frame of which window it shows.
 *
 * Shared by the fake clients (which paint frame k of their window in colour(k)) and the
 * harness's pixel oracle (which decodes a sampled root pixel back to k).  The blue byte is a
 * marker, so a pixel of the root background, a decoration or a blend is never mistaken for a
 * frame; red and green carry 14 bits of the frame number.
 */
#ifndef FRAMESYNC_FRAME_COLOUR_H
#define FRAMESYNC_FRAME_COLOUR_H

#include <stdint.h>

#define FRAME_COLOUR_MARKER 0x5Au
#define FRAME_COLOUR_MAX_FRAME 0x3FFFu /* 14 bits */

/* 0x00RRGGBB of frame k (k is taken modulo FRAME_COLOUR_MAX_FRAME + 1). */
static inline uint32_t frame_colour(uint32_t k)
{
    k &= FRAME_COLOUR_MAX_FRAME;
    uint32_t r = 0x80u | (k >> 7);
    uint32_t g = 0x80u | (k & 0x7Fu);
    return (r << 16) | (g << 8) | FRAME_COLOUR_MARKER;
}

/* Decode a 0x00RRGGBB pixel: the frame number, or -1 when it is not a frame colour. */
static inline int32_t frame_of_colour(uint32_t rgb)
{
    uint32_t r = (rgb >> 16) & 0xFFu, g = (rgb >> 8) & 0xFFu, b = rgb & 0xFFu;
    if (b != FRAME_COLOUR_MARKER || !(r & 0x80u) || !(g & 0x80u))
        return -1;
    return (int32_t)(((r & 0x7Fu) << 7) | (g & 0x7Fu));
}

#endif
