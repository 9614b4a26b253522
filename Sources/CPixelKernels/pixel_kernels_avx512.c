// AVX-512 versions of the row blends and composites and of the bilinear runs of
// pixel_kernels.c: the same pixels, sixteen at a time (AVX-512F for the 32-bit lanes, masks
// and gathers, AVX-512BW for the 16-bit multiplies). Each handles whole blocks of sixteen and
// returns how many pixels it handled; the AVX2 kernel and then the Swift loop finish the rest.
#include "pixel_kernels.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>

#define AVX512 __attribute__((target("avx512f,avx512bw")))

int vitrine_pixels_have_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? 1 : 0;
}

/// Sixteen pixels scaled channel by channel by 16-bit factors: `scale8` of pixel_kernels.c
/// (its high multiply by 257 included).
static inline AVX512 __m512i scale16(__m512i p, __m512i factor) {
    const __m512i low_bytes = _mm512_set1_epi32(0x00FF00FF);
    const __m512i bias = _mm512_set1_epi16(128);
    __m512i rb = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(p, low_bytes), factor), bias);
    rb = _mm512_mulhi_epu16(rb, _mm512_set1_epi16(257));
    __m512i ag = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(p, 8), factor), bias);
    ag = _mm512_mulhi_epu16(ag, _mm512_set1_epi16(257));
    return _mm512_or_si512(rb, _mm512_slli_epi16(ag, 8));
}

/// Per-pixel factors (0…256 in 32-bit lanes) in both 16-bit lanes of their pixel.
static inline AVX512 __m512i lanes16(__m512i factors) {
    return _mm512_or_si512(factors, _mm512_slli_epi32(factors, 16));
}

/// Per-pixel factors of at most 255 in both 16-bit lanes of their pixel: `byte_lanes` of
/// pixel_kernels.c.
static inline AVX512 __m512i byte_lanes16(__m512i factors) {
    const __m512i spread = _mm512_set4_epi32((int)0xFF0CFF0C, (int)0xFF08FF08, (int)0xFF04FF04, (int)0xFF00FF00);
    return _mm512_shuffle_epi8(factors, spread);
}

/// 255 minus each pixel's alpha, in both 16-bit lanes of the pixel: `inverse_alpha_lanes`.
static inline AVX512 __m512i inverse_alpha_lanes16(__m512i pixels) {
    const __m512i alpha = _mm512_set4_epi32((int)0xFF0FFF0F, (int)0xFF0BFF0B, (int)0xFF07FF07, (int)0xFF03FF03);
    return _mm512_sub_epi16(_mm512_set1_epi16(255), _mm512_shuffle_epi8(pixels, alpha));
}

static inline AVX512 __m512i load16(const uint32_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline AVX512 void store16(uint32_t *p, __m512i v) { _mm512_storeu_si512((void *)p, v); }
static inline AVX512 int is_zero16(__m512i v) { return _mm512_test_epi32_mask(v, v) == 0; }
/// Whether every pixel is opaque (alpha 255: the pixel is at least 0xFF000000).
static inline AVX512 int all_opaque16(__m512i v) {
    return _mm512_cmplt_epu32_mask(v, _mm512_set1_epi32((int)0xFF000000)) == 0;
}

/// Sixteen premultiplied pixels source-over `dst`: s + d·(255 − αs)/255.
static inline AVX512 void source_over16(__m512i s, uint32_t *dst) {
    store16(dst, _mm512_add_epi32(s, scale16(load16(dst), inverse_alpha_lanes16(s))));
}

/// One block of sixteen of `vitrine_blend_pixels_avx512` (`blend8`'s cases).
static inline AVX512 void blend16(
    uint32_t *dst, const uint32_t *src, uint32_t *consumed, uint32_t factor, __m512i factor16) {
    __m512i s = load16(src);
    if (is_zero16(s)) return;
    if (consumed) store16(consumed, _mm512_setzero_si512());
    if (factor == 255) {
        if (all_opaque16(s)) {
            store16(dst, s);
            return;
        }
    } else {
        s = scale16(s, factor16);
    }
    source_over16(s, dst);
}

AVX512 long vitrine_blend_pixels_avx512(uint32_t *dst, const uint32_t *src, long count, uint32_t factor) {
    const __m512i factor16 = _mm512_set1_epi16((short)factor);
    long i = 0;
    for (; i + 16 <= count; i += 16) blend16(dst + i, src + i, NULL, factor, factor16);
    return i;
}

AVX512 long vitrine_composite_pixels_avx512(uint32_t *dst, uint32_t *src, long count, uint32_t factor) {
    const __m512i factor16 = _mm512_set1_epi16((short)factor);
    long i = 0;
    for (; i + 16 <= count; i += 16) blend16(dst + i, src + i, src + i, factor, factor16);
    return i;
}

AVX512 long vitrine_blend_pixels_masked_avx512(
    uint32_t *dst, const uint32_t *src, long count, uint32_t factor, const uint8_t *mask) {
    const __m512i factor16 = _mm512_set1_epi16((short)factor);
    const __m512i factor32 = _mm512_set1_epi32((int)factor);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        uint64_t low, high;
        memcpy(&low, mask + i, 8);
        memcpy(&high, mask + i + 8, 8);
        if ((low | high) == 0) continue;
        if ((low & high) == ~(uint64_t)0) {
            blend16(dst + i, src + i, NULL, factor, factor16);
            continue;
        }
        // mul255(factor, mask byte) per pixel, as the Swift loop computes it.
        __m512i bytes = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(mask + i)));
        __m512i t = _mm512_add_epi32(_mm512_mullo_epi32(bytes, factor32), _mm512_set1_epi32(128));
        __m512i per_pixel = _mm512_srli_epi32(_mm512_add_epi32(t, _mm512_srli_epi32(t, 8)), 8);
        source_over16(scale16(load16(src + i), byte_lanes16(per_pixel)), dst + i);
    }
    return i;
}

AVX512 long vitrine_composite_over_avx512(
    uint32_t *dst, uint32_t *src, long count, uint32_t factor, uint32_t underlay, uint32_t scaled_underlay) {
    const __m512i factor16 = _mm512_set1_epi16((short)factor);
    const __m512i below = _mm512_set1_epi32((int)underlay);
    const __m512i bare = _mm512_set1_epi32((int)scaled_underlay);
    const __m512i bare_inverse = _mm512_set1_epi16((short)(255 - (scaled_underlay >> 24)));
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i s = load16(src + i);
        if (is_zero16(s)) {
            // Nothing drawn: the scaled underlay alone, unless the target already shows it.
            __m512i d = load16(dst + i);
            if (_mm512_cmpneq_epi32_mask(d, below)) store16(dst + i, _mm512_add_epi32(bare, scale16(d, bare_inverse)));
            continue;
        }
        store16(src + i, _mm512_setzero_si512());
        if (!all_opaque16(s)) s = _mm512_add_epi32(s, scale16(below, inverse_alpha_lanes16(s)));
        if (factor != 255) s = scale16(s, factor16);
        source_over16(s, dst + i);
    }
    return i;
}

AVX512 long vitrine_blend_solid_avx512(uint32_t *dst, const uint8_t *coverage, long count, uint32_t color) {
    const __m512i source = _mm512_set1_epi32((int)color);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i sixteen = _mm_loadu_si128((const __m128i *)(coverage + i));
        if (_mm_testz_si128(sixteen, sixteen)) continue;
        source_over16(scale16(source, byte_lanes16(_mm512_cvtepu8_epi32(sixteen))), dst + i);
    }
    return i;
}

AVX512 long vitrine_blend_constant_avx512(uint32_t *dst, long count, uint32_t color, uint32_t inverse) {
    const __m512i factor16 = _mm512_set1_epi16((short)inverse);
    const __m512i source = _mm512_set1_epi32((int)color);
    long i = 0;
    for (; i + 16 <= count; i += 16) store16(dst + i, _mm512_add_epi32(source, scale16(load16(dst + i), factor16)));
    return i;
}

/// `weigh16` of pixel_kernels.c on sixteen pixels: (a·wa + b·wb + 128) >> 8 in 16-bit lanes.
static inline AVX512 __m512i weigh32(__m512i a, __m512i wa, __m512i b, __m512i wb) {
    __m512i sum = _mm512_add_epi16(_mm512_mullo_epi16(a, wa), _mm512_mullo_epi16(b, wb));
    return _mm512_srli_epi16(_mm512_add_epi16(sum, _mm512_set1_epi16(128)), 8);
}

/// Bilinear samples of sixteen pixels at the 16.16 positions (`us`, `vs`) into `out`.
static inline AVX512 void bilinear16(const uint32_t *pixels, long width, __m512i us, __m512i vs, uint32_t *out) {
    const __m512i row_width = _mm512_set1_epi32((int32_t)width);
    const __m512i low_bytes = _mm512_set1_epi32(0x00FF00FF);
    const __m512i byte = _mm512_set1_epi32(0xFF);
    const __m512i full = _mm512_set1_epi32(256);
    // From sixteen texel pairs in two vectors of 64-bit lanes: the left texels (even 32-bit
    // lanes) and the right ones (odd), in pixel order.
    const __m512i lefts = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i rights = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const uint32_t *below_row = pixels + width;
    __m512i offset = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_srai_epi32(vs, 16), row_width), _mm512_srai_epi32(us, 16));
    // Each pair (a texel and the one right of it) gathered as one 64-bit value.
    __m256i first8 = _mm512_castsi512_si256(offset), last8 = _mm512_extracti64x4_epi64(offset, 1);
    __m512i top0 = _mm512_i32gather_epi64(first8, (const void *)pixels, 4);
    __m512i top1 = _mm512_i32gather_epi64(last8, (const void *)pixels, 4);
    __m512i bottom0 = _mm512_i32gather_epi64(first8, (const void *)below_row, 4);
    __m512i bottom1 = _mm512_i32gather_epi64(last8, (const void *)below_row, 4);
    __m512i top_left = _mm512_permutex2var_epi32(top0, lefts, top1);
    __m512i top_right = _mm512_permutex2var_epi32(top0, rights, top1);
    __m512i bottom_left = _mm512_permutex2var_epi32(bottom0, lefts, bottom1);
    __m512i bottom_right = _mm512_permutex2var_epi32(bottom0, rights, bottom1);
    __m512i fx = _mm512_and_si512(_mm512_srai_epi32(us, 8), byte);
    __m512i fy = _mm512_and_si512(_mm512_srai_epi32(vs, 8), byte);
    __m512i right = lanes16(fx), left = lanes16(_mm512_sub_epi32(full, fx));
    __m512i below = lanes16(fy), above = lanes16(_mm512_sub_epi32(full, fy));
#define RB(p) _mm512_and_si512((p), low_bytes)
#define AG(p) _mm512_and_si512(_mm512_srli_epi32((p), 8), low_bytes)
    __m512i upper_rb = weigh32(RB(top_left), left, RB(top_right), right);
    __m512i upper_ag = weigh32(AG(top_left), left, AG(top_right), right);
    __m512i lower_rb = weigh32(RB(bottom_left), left, RB(bottom_right), right);
    __m512i lower_ag = weigh32(AG(bottom_left), left, AG(bottom_right), right);
#undef RB
#undef AG
    __m512i rb = weigh32(upper_rb, above, lower_rb, below);
    __m512i ag = weigh32(upper_ag, above, lower_ag, below);
    store16(out, _mm512_or_si512(rb, _mm512_slli_epi32(ag, 8)));
}

AVX512 long vitrine_bilinear_run_avx512(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count,
    uint32_t *out) {
    const __m512i steps = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // Positions in 32-bit lanes, stepped with wrapping arithmetic as the Swift lanes are.
    __m512i us = _mm512_add_epi32(_mm512_set1_epi32(u), _mm512_mullo_epi32(steps, _mm512_set1_epi32(du)));
    __m512i vs = _mm512_add_epi32(_mm512_set1_epi32(v), _mm512_mullo_epi32(steps, _mm512_set1_epi32(dv)));
    const __m512i step_u = _mm512_set1_epi32((int32_t)((uint32_t)du * 16u));
    const __m512i step_v = _mm512_set1_epi32((int32_t)((uint32_t)dv * 16u));
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        bilinear16(pixels, width, us, vs, out + i);
        us = _mm512_add_epi32(us, step_u);
        vs = _mm512_add_epi32(vs, step_v);
    }
    return i;
}

AVX512 void vitrine_bilinear_runs16_avx512(
    const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out) {
    const __m512i steps = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (long k = 0; k < count; k++) {
        const int32_t *run = runs + 4 * k;
        __m512i us = _mm512_add_epi32(_mm512_set1_epi32(run[0]), _mm512_mullo_epi32(steps, _mm512_set1_epi32(run[2])));
        __m512i vs = _mm512_add_epi32(_mm512_set1_epi32(run[1]), _mm512_mullo_epi32(steps, _mm512_set1_epi32(run[3])));
        bilinear16(pixels, width, us, vs, out + 16 * k);
    }
}

#else

// Elsewhere the AVX2 kernels' stand-ins and the Swift loops handle every pixel.
int vitrine_pixels_have_avx512(void) { return 0; }
long vitrine_blend_pixels_avx512(uint32_t *dst, const uint32_t *src, long count, uint32_t factor) { return 0; }
long vitrine_composite_pixels_avx512(uint32_t *dst, uint32_t *src, long count, uint32_t factor) { return 0; }
long vitrine_blend_pixels_masked_avx512(
    uint32_t *dst, const uint32_t *src, long count, uint32_t factor, const uint8_t *mask) {
    return 0;
}
long vitrine_composite_over_avx512(
    uint32_t *dst, uint32_t *src, long count, uint32_t factor, uint32_t underlay, uint32_t scaled_underlay) {
    return 0;
}
long vitrine_blend_solid_avx512(uint32_t *dst, const uint8_t *coverage, long count, uint32_t color) { return 0; }
long vitrine_blend_constant_avx512(uint32_t *dst, long count, uint32_t color, uint32_t inverse) { return 0; }
long vitrine_bilinear_run_avx512(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count,
    uint32_t *out) {
    return 0;
}
void vitrine_bilinear_runs16_avx512(
    const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out) {}

#endif
