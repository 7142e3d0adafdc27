#ifndef PHOTO_VALIDATOR_PV_FUZZ_H
#define PHOTO_VALIDATOR_PV_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* A fuzz target's body: returns 0 (libFuzzer's convention). */
typedef int (*pv_fuzz_callback)(const uint8_t *data, size_t size);

/* Runs `callback` under libFuzzer when the binary was linked with -sanitize=fuzzer; otherwise
 * replays every file named in argv (folders recursively) through it once, so corpora and findings
 * double as regression inputs. Returns the process exit status. */
int pv_fuzz_main(int argc, char **argv, pv_fuzz_callback callback);

#endif
