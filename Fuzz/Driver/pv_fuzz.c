#define _XOPEN_SOURCE 700
#include "pv_fuzz.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Present only when libFuzzer is linked in (-sanitize=fuzzer). */
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) __attribute__((weak));

static pv_fuzz_callback replay_callback;
static long replayed;

static int replay_file(const char *path, const struct stat *info, int kind, struct FTW *walk) {
    (void) walk;
    if (kind != FTW_F || info->st_size > (64 << 20)) {
        return 0;
    }
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        return 0;
    }
    size_t size = (size_t) info->st_size;
    uint8_t *data = malloc(size > 0 ? size : 1);
    if (data != NULL && fread(data, 1, size, file) == size) {
        replay_callback(data, size);
        replayed++;
    }
    free(data);
    fclose(file);
    return 0;
}

int pv_fuzz_main(int argc, char **argv, pv_fuzz_callback callback) {
    if (LLVMFuzzerRunDriver != NULL) {
        return LLVMFuzzerRunDriver(&argc, &argv, callback);
    }
    replay_callback = callback;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            continue;
        }
        nftw(argv[i], replay_file, 16, FTW_PHYS);
    }
    printf("replayed %ld inputs\n", replayed);
    return 0;
}
