/* OpenSSL 4's two-lane 1024-bit AMM (ossl_rsaz_amm52x20_x2_ifma256, the product of
 * BN_mod_exp_mont_consttime_x2 on AVX-512 IFMA), timed as montlab's
 * `examples/amm_pair_timings` times `amm::AmmPair`: chained products (each output is the next
 * pair of operands, a = a a R^-1 in both lanes), two moduli of 20 digits of 52 bits, time per
 * product (one lane's). Medians are not taken: each of the 7 rounds prints its own figure.
 *
 * Build against the native peer build of `montlab bench --native-peers` (static library):
 *   cc -O2 bench/openssl_amm_x2.c ~/.cache/montlab/peers/openssl-4.0.3/lib/libcrypto.a \
 *      -lpthread -ldl -o /tmp/openssl_amm_x2 && /tmp/openssl_amm_x2
 * Needs a CPU with AVX-512 IFMA (the function has no fallback). */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

void ossl_rsaz_amm52x20_x2_ifma256(uint64_t *out, const uint64_t *a, const uint64_t *b,
                                   const uint64_t *m, const uint64_t k0[2]);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    static uint64_t a[40] __attribute__((aligned(64))), m[40] __attribute__((aligned(64))),
        o[40] __attribute__((aligned(64)));
    const uint64_t mask = (1ULL << 52) - 1;
    uint64_t x = 0x9e3779b97f4a7c15ULL, k0[2];
    /* Seeded digits: odd moduli of 1023 bits (the top digit, bits 988 and up, holds 35 bits
     * with its top one set) and operands below them (a top digit below N's), both lanes of 20
     * digits. */
    for (int i = 0; i < 40; i++) {
        x = x * 6364136223846793005ULL + 1;
        m[i] = (x >> 12) & mask;
        x = x * 6364136223846793005ULL + 1;
        a[i] = (x >> 12) & mask;
    }
    for (int l = 0; l < 2; l++) {
        m[20 * l] |= 1;
        m[20 * l + 19] = (m[20 * l + 19] >> 17) | (1ULL << 34);
        a[20 * l + 19] = m[20 * l + 19] >> 1;
        uint64_t n = m[20 * l], inv = 1; /* -N^-1 mod 2^52 by Newton's iteration */
        for (int i = 0; i < 6; i++) inv *= 2 - n * inv;
        k0[l] = (0 - inv) & mask;
    }
    const long reps = 2000000;
    uint64_t *in = a, *out = o, *tmp;
    for (int r = 0; r < 7; r++) {
        double t = now();
        for (long i = 0; i < reps; i++) { /* ping-pong buffers, as the Rust loop swaps */
            ossl_rsaz_amm52x20_x2_ifma256(out, in, in, m, k0);
            tmp = in, in = out, out = tmp;
        }
        printf("ossl_rsaz_amm52x20_x2_ifma256: %.1f ns per product\n",
               (now() - t) / reps / 2 * 1e9);
    }
    return 0;
}
