/* Replays inputs through a fuzz target without libFuzzer (make check: gcc with ASan/UBSan):
 * replay FILE... ; each file's bytes are passed to LLVMFuzzerTestOneInput once. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0, got;
        do {
            if (len == cap)
                buf = realloc(buf, cap = cap ? cap * 2 : 4096);
            got = fread(buf + len, 1, cap - len, f);
            len += got;
        } while (got);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
    }
    printf("replayed %d input%s\n", argc - 1, argc == 2 ? "" : "s");
    return 0;
}
