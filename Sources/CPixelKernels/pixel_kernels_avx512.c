// AVX-512 versions of the row blends and composites of pixel_kernels.c: the same pixels,
// sixteen at a time (AVX-512F for the 32-bit lanes and masks, AVX-512BW for the 16-bit
// multiplies). Each handles whole blocks of sixteen and returns how many pixels it handled;
// the AVX2 kernel and then the Swift loop finish the rest.
#include "pixel_kernels.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>

#define AVX512 __attribute__((target("avx512f,avx512bw")))

int vitrine_pixels_have_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? 1 : 0;
}

/// Sixteen pixels scaled channel by channel by 16-bit factors: `scale8` of pixel_kernels.c.
static inline AVX512 __m512i scale16(__m512i p, __m512i factor) {
    const __m512i low_bytes = _mm512_set1_epi32(0x00FF00FF);
    const __m512i bias = _mm512_set1_epi16(128);
    __m512i rb = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(p, low_bytes), factor), bias);
    rb = _mm512_srli_epi16(_mm512_add_epi16(rb, _mm512_srli_epi16(rb, 8)), 8);
    __m512i ag = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(p, 8), factor), bias);
    ag = _mm512_srli_epi16(_mm512_add_epi16(ag, _mm512_srli_epi16(ag, 8)), 8);
    return _mm512_or_si512(rb, _mm512_slli_epi16(ag, 8));
}

/// Per-pixel factors (0…255 in 32-bit lanes) in both 16-bit lanes of their pixel.
static inline AVX512 __m512i lanes16(__m512i factors) {
    return _mm512_or_si512(factors, _mm512_slli_epi32(factors, 16));
}

/// 255 minus each pixel's alpha, per 32-bit lane.
static inline AVX512 __m512i inverse_alpha16(__m512i pixels) {
    return _mm512_sub_epi32(_mm512_set1_epi32(255), _mm512_srli_epi32(pixels, 24));
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
    store16(dst, _mm512_add_epi32(s, scale16(load16(dst), lanes16(inverse_alpha16(s)))));
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
        source_over16(scale16(load16(src + i), lanes16(per_pixel)), dst + i);
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
        if (!all_opaque16(s)) s = _mm512_add_epi32(s, scale16(below, lanes16(inverse_alpha16(s))));
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
        source_over16(scale16(source, lanes16(_mm512_cvtepu8_epi32(sixteen))), dst + i);
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

#endif
