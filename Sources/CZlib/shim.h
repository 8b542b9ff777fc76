#include <zlib.h>

// deflateInit2 is a macro (it passes the library version and the stream's
// size), which Swift cannot call: the same call as a function.
static inline int crosspoint_deflate_init_gzip(z_stream *stream, int level) {
    // windowBits 15 + 16: a gzip header and trailer around the deflate data.
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
