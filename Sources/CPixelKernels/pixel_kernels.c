// AVX2 versions of the Swift pixel loops named in pixel_kernels.h. Premultiplied 32-bit
// pixels, eight per 256-bit vector; a scaling splits red/blue and alpha/green into 16-bit
// lanes and divides by 255 with PixelMath.scale's rounding (one high multiply: `scale8`), the
// pixels SpanBlitter.scaleWide gives on 128-bit halves.
#include "pixel_kernels.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include <wchar.h>

#define AVX2 __attribute__((target("avx2")))

int vitrine_pixels_have_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

/// Eight pixels scaled channel by channel by 16-bit factors (0…255 in each lane). The rounding,
/// (y + (y >> 8)) >> 8 with y = x + 128, is (y · 257) >> 16 for every 16-bit y: one high multiply.
static inline AVX2 __m256i scale8(__m256i p, __m256i factor) {
    const __m256i low_bytes = _mm256_set1_epi32(0x00FF00FF);
    const __m256i bias = _mm256_set1_epi16(128);
    const __m256i by257 = _mm256_set1_epi16(257);
    __m256i rb = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(p, low_bytes), factor), bias);
    rb = _mm256_mulhi_epu16(rb, by257);
    __m256i ag = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(p, 8), factor), bias);
    ag = _mm256_mulhi_epu16(ag, by257);
    return _mm256_or_si256(rb, _mm256_slli_epi16(ag, 8));
}

/// Per-pixel factors (0…256 in 32-bit lanes) in both 16-bit lanes of their pixel.
static inline AVX2 __m256i lanes(__m256i factors) {
    return _mm256_or_si256(factors, _mm256_slli_epi32(factors, 16));
}

/// Per-pixel factors of at most 255 (in the low byte of 32-bit lanes) in both 16-bit lanes of
/// their pixel: `lanes` by one byte shuffle.
static inline AVX2 __m256i byte_lanes(__m256i factors) {
    const __m256i spread = _mm256_setr_epi8(
        0, -1, 0, -1, 4, -1, 4, -1, 8, -1, 8, -1, 12, -1, 12, -1, 0, -1, 0, -1, 4, -1, 4, -1, 8, -1, 8, -1, 12, -1,
        12, -1);
    return _mm256_shuffle_epi8(factors, spread);
}

/// 255 minus each pixel's alpha, in both 16-bit lanes of the pixel (a scaling's factors).
static inline AVX2 __m256i inverse_alpha_lanes(__m256i pixels) {
    const __m256i alpha = _mm256_setr_epi8(
        3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1, 3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1,
        15, -1);
    return _mm256_sub_epi16(_mm256_set1_epi16(255), _mm256_shuffle_epi8(pixels, alpha));
}

static inline AVX2 __m256i load8(const uint32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline AVX2 void store8(uint32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline AVX2 int is_zero(__m256i v) { return _mm256_testz_si256(v, v); }

/// Eight bytes (a mask's or coverage row's), as one word to test at once.
static inline uint64_t load_bytes8(const uint8_t *p) {
    uint64_t eight;
    memcpy(&eight, p, 8);
    return eight;
}

/// Eight bytes widened to one per 32-bit lane.
static inline AVX2 __m256i widen8(uint64_t eight) {
    return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)eight));
}

/// Eight premultiplied pixels source-over `dst`: s + d·(255 − αs)/255.
/// `s` source-over `below`, eight pixels.
static inline AVX2 __m256i over8(__m256i s, __m256i below) {
    return _mm256_add_epi32(s, scale8(below, inverse_alpha_lanes(s)));
}

static inline AVX2 void source_over8(__m256i s, uint32_t *dst) { store8(dst, over8(s, load8(dst))); }

/// One block of `vitrine_blend_pixels_avx2`: transparent sources leave `dst`, opaque ones at
/// full factor replace it. With `consumed` (the source itself), a drawn block is left
/// transparent once read.
static inline AVX2 void blend8(
    uint32_t *dst, const uint32_t *src, uint32_t *consumed, uint32_t factor, __m256i factor16) {
    __m256i s = load8(src);
    if (is_zero(s)) return;
    if (consumed) store8(consumed, _mm256_setzero_si256());
    if (factor == 255) {
        if (_mm256_testc_si256(s, _mm256_set1_epi32((int)0xFF000000))) {
            store8(dst, s);
            return;
        }
    } else {
        s = scale8(s, factor16);
    }
    source_over8(s, dst);
}

AVX2 long vitrine_blend_pixels_avx2(uint32_t *dst, const uint32_t *src, long count, uint32_t factor) {
    const __m256i factor16 = _mm256_set1_epi16((short)factor);
    long i = 0;
    for (; i + 8 <= count; i += 8) blend8(dst + i, src + i, NULL, factor, factor16);
    return i;
}

AVX2 long vitrine_composite_pixels_avx2(uint32_t *dst, uint32_t *src, long count, uint32_t factor) {
    const __m256i factor16 = _mm256_set1_epi16((short)factor);
    long i = 0;
    for (; i + 8 <= count; i += 8) blend8(dst + i, src + i, src + i, factor, factor16);
    return i;
}

AVX2 long vitrine_blend_pixels_masked_avx2(
    uint32_t *dst, const uint32_t *src, long count, uint32_t factor, const uint8_t *mask) {
    const __m256i factor16 = _mm256_set1_epi16((short)factor);
    const __m256i factor32 = _mm256_set1_epi32((int)factor);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t eight = load_bytes8(mask + i);
        if (eight == 0) continue;
        if (eight == ~(uint64_t)0) {
            blend8(dst + i, src + i, NULL, factor, factor16);
            continue;
        }
        // mul255(factor, mask byte) per pixel, as the Swift loop computes it.
        __m256i t = _mm256_add_epi32(_mm256_mullo_epi32(widen8(eight), factor32), _mm256_set1_epi32(128));
        __m256i per_pixel = _mm256_srli_epi32(_mm256_add_epi32(t, _mm256_srli_epi32(t, 8)), 8);
        source_over8(scale8(load8(src + i), byte_lanes(per_pixel)), dst + i);
    }
    return i;
}

AVX2 long vitrine_composite_over_avx2(
    uint32_t *dst, uint32_t *src, long count, uint32_t factor, uint32_t underlay, uint32_t scaled_underlay) {
    const __m256i factor16 = _mm256_set1_epi16((short)factor);
    const __m256i below = _mm256_set1_epi32((int)underlay);
    const __m256i bare = _mm256_set1_epi32((int)scaled_underlay);
    const __m256i bare_inverse = _mm256_set1_epi16((short)(255 - (scaled_underlay >> 24)));
    const __m256i opaque = _mm256_set1_epi32((int)0xFF000000);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i s = load8(src + i);
        if (is_zero(s)) {
            // Nothing drawn: the scaled underlay alone, unless the target already shows it.
            __m256i d = load8(dst + i);
            if (!is_zero(_mm256_xor_si256(d, below))) {
                store8(dst + i, _mm256_add_epi32(bare, scale8(d, bare_inverse)));
            }
            continue;
        }
        store8(src + i, _mm256_setzero_si256());
        if (!_mm256_testc_si256(s, opaque)) s = over8(s, below);
        if (factor != 255) s = scale8(s, factor16);
        source_over8(s, dst + i);
    }
    return i;
}

AVX2 long vitrine_blend_solid_avx2(uint32_t *dst, const uint8_t *coverage, long count, uint32_t color) {
    const __m256i source = _mm256_set1_epi32((int)color);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t eight = load_bytes8(coverage + i);
        if (eight == 0) continue;
        source_over8(scale8(source, byte_lanes(widen8(eight))), dst + i);
    }
    return i;
}

AVX2 long vitrine_blend_constant_avx2(uint32_t *dst, long count, uint32_t color, uint32_t inverse) {
    const __m256i factor16 = _mm256_set1_epi16((short)inverse);
    const __m256i source = _mm256_set1_epi32((int)color);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        store8(dst + i, _mm256_add_epi32(source, scale8(load8(dst + i), factor16)));
    }
    return i;
}

/// `Rasterizer.coverage` on eight lanes: |winding| folded by the fill rule, scaled to 0…255.
static inline AVX2 __m256i coverage8(__m256i winding, int even_odd) {
    const __m256i half = _mm256_set1_epi32(0x20000);
    __m256i a = _mm256_abs_epi32(winding);
    if (even_odd) {
        // A triangle wave of period two windings: 0x20000 − |(a mod 0x40000) − 0x20000|.
        __m256i folded = _mm256_sub_epi32(_mm256_and_si256(a, _mm256_set1_epi32(0x3FFFF)), half);
        a = _mm256_sub_epi32(half, _mm256_abs_epi32(folded));
    } else {
        a = _mm256_min_epi32(a, half);
    }
    __m256i scaled = _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(a, 8), a), _mm256_set1_epi32(0x10000));
    return _mm256_srli_epi32(scaled, 17);
}

/// The winding of eight cells after `sum` (a prefix sum within each 128-bit half by two shifted
/// adds, then the low half's total carried into the high half), and the winding after their
/// carry (the ninth cell); clears the nine cells.
static inline AVX2 __m256i winding8(int32_t *cells, int32_t sum, int32_t *after) {
    __m256i v = _mm256_loadu_si256((const __m256i *)cells);
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 4));
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 8));
    __m256i low_total = _mm256_shuffle_epi32(_mm256_permute2x128_si256(v, v, 0x08), 0xFF);
    __m256i winding = _mm256_add_epi32(_mm256_add_epi32(v, low_total), _mm256_set1_epi32(sum));
    *after = _mm256_extract_epi32(winding, 7) + cells[8];
    _mm256_storeu_si256((__m256i *)cells, _mm256_setzero_si256());
    cells[8] = 0;
    return winding;
}

/// `source` (the colour in every lane) at the coverage of a group of eight cells after the
/// winding `sum`; the winding after the group goes to `after`, and the cells are cleared.
static inline AVX2 __m256i group_source8(int32_t *cells, int32_t sum, __m256i source, int even_odd, int32_t *after) {
    return scale8(source, byte_lanes(coverage8(winding8(cells, sum, after), even_odd)));
}

/// A group of eight cells after the winding `sum` swept into eight pixels of `source` (the
/// colour in every lane), source-over `dst`; the winding after the group.
static inline AVX2 int32_t sweep_group8(int32_t *cells, int32_t sum, uint32_t *dst, __m256i source, int even_odd) {
    int32_t after;
    source_over8(group_source8(cells, sum, source, even_odd, &after), dst);
    return after;
}

AVX2 int32_t vitrine_sweep_group_solid_avx2(int32_t *cells, int32_t sum, uint32_t *dst, uint32_t color, int even_odd) {
    return sweep_group8(cells, sum, dst, _mm256_set1_epi32((int)color), even_odd);
}

AVX2 int32_t vitrine_sweep_last_group_solid_avx2(
    int32_t *cells, int32_t sum, uint32_t *dst, long count, uint32_t color, int even_odd) {
    int32_t after;
    __m256i source = group_source8(cells, sum, _mm256_set1_epi32((int)color), even_odd, &after);
    // Lanes from `count` on are neither read nor written (they may lie past the bitmap's end).
    __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i below = _mm256_maskload_epi32((const int *)dst, inside);
    uint32_t blended[8];
    _mm256_storeu_si256((__m256i *)blended, over8(source, below));
    for (long k = 0; k < count; k++) dst[k] = blended[k];
    return after;
}

/// `PixelMath.scale`: every channel of `p` times `f / 255`, rounded.
static inline uint32_t scale1(uint32_t p, uint32_t f) {
    uint32_t rb = (p & 0x00FF00FF) * f + 0x00800080;
    rb = ((rb + ((rb >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF;
    uint32_t ag = ((p >> 8) & 0x00FF00FF) * f + 0x00800080;
    ag = (ag + ((ag >> 8) & 0x00FF00FF)) & 0xFF00FF00;
    return rb | ag;
}

/// `Rasterizer.coverage` of one winding area.
static inline uint32_t coverage1(int32_t value, int even_odd) {
    uint32_t a = value < 0 ? 0u - (uint32_t)value : (uint32_t)value;
    if (even_odd) {
        a &= 0x3FFFF;
        if (a > 0x20000) a = 0x40000 - a;
    } else if (a > 0x20000) {
        a = 0x20000;
    }
    return (a * 255 + 0x10000) >> 17;
}

/// `count` pixels set to `color`, as `PixelFill.fill` sets them: long runs by the library.
static inline AVX2 void fill_run(uint32_t *p, long count, uint32_t color) {
    if (count >= 64) {
        if (color == (color & 0xFF) * 0x01010101u) {
            memset(p, (int)(color & 0xFF), (size_t)count * 4);
        } else {
            wmemset((wchar_t *)p, (wchar_t)color, (size_t)count);
        }
        return;
    }
    const __m256i source = _mm256_set1_epi32((int)color);
    long i = 0;
    for (; i + 8 <= count; i += 8) store8(p + i, source);
    for (; i < count; i++) p[i] = color;
}

/// `SpanBlitter.blendConstant`: `color + dst·(255 − αcolor)/255` per channel, sixteen pixels a
/// step first when `avx512`.
static inline AVX2 void blend_constant_run(uint32_t *p, long count, uint32_t color, int avx512) {
    uint32_t inverse = 255 - (color >> 24);
    if (inverse == 0) {
        fill_run(p, count, color);
        return;
    }
    long i = avx512 ? vitrine_blend_constant_avx512(p, count, color, inverse) : 0;
    i += vitrine_blend_constant_avx2(p + i, count - i, color, inverse);
    for (; i < count; i++) p[i] = color + scale1(p[i], inverse);
}

/// `SpanBlitter.SolidBlender.run`: `count` pixels from `p` at one coverage `c` (1…255). Out of
/// line: inlined, its constants and loops took the registers of the sweep's loop around it.
static __attribute__((noinline)) AVX2 void solid_run(
    uint32_t *p, long count, uint32_t c, uint32_t color, long prefetch, int avx512) {
    if (c == 255 && color >> 24 == 255) {
        fill_run(p, count, color);
        return;
    }
    if (prefetch) {
        uintptr_t line = (uintptr_t)(p + prefetch) & ~(uintptr_t)63, last = (uintptr_t)(p + prefetch + count - 1);
        do {
            __builtin_prefetch((const void *)line, 1);
            line += 64;
        } while (line <= last);
    }
    if (c == 255) {
        blend_constant_run(p, count, color, avx512);
    } else if (count == 1) {
        *p = color >> 24 == 255 ? scale1(color, c) + scale1(*p, 255 - c)
                                : scale1(color, c) + scale1(*p, 255 - (scale1(color, c) >> 24));
    } else {
        blend_constant_run(p, count, scale1(color, c), avx512);
    }
}

AVX2 long vitrine_sweep_rows_solid_avx2(
    int32_t *cells, long cell_stride, uint64_t *marks, long words, const bool *events, const bool *conflicted,
    long rows, long end, uint32_t *row, long pixels_per_row, long prefetching_rows, long prefetch, uint32_t color,
    int even_odd, int avx512) {
    const __m256i source = _mm256_set1_epi32((int)color);
    for (long r = 0; r < rows; r++, cells += cell_stride, marks += words, row += pixels_per_row) {
        if (events[r] || conflicted[r]) return r;
        long ahead = r < prefetching_rows ? prefetch : 0;
        int32_t sum = 0;
        long run_start = 0;
        for (long word = 0; word < words; word++) {
            uint64_t bits = marks[word];
            if (!bits) continue;
            marks[word] = 0;
            do {
                long shift = __builtin_ctzll(bits) & ~7L;
                bits &= ~((uint64_t)0xFF << shift);
                long i = (word << 6) | shift;
                if (i > run_start) {
                    uint32_t c = coverage1(sum, even_odd);
                    if (c) solid_run(row + run_start, i - run_start, c, color, ahead, avx512);
                }
                if (i + 8 <= end) {
                    if (ahead) {
                        __builtin_prefetch(row + i + ahead, 1);
                        __builtin_prefetch(row + i + ahead + 7, 1);
                    }
                    sum = sweep_group8(cells + i, sum, row + i, source, even_odd);
                } else {
                    sum = vitrine_sweep_last_group_solid_avx2(cells + i, sum, row + i, end - i, color, even_odd);
                }
                run_start = i + 8;
            } while (bits);
        }
        if (end > run_start) {
            uint32_t c = coverage1(sum, even_odd);
            if (c) solid_run(row + run_start, end - run_start, c, color, ahead, avx512);
        }
    }
    return rows;
}

/// `weigh` of `PixelMath.bilinear4`: (a·wa + b·wb + 128) >> 8 in 16-bit lanes (wa + wb = 256,
/// so the sum stays below 2^16).
static inline AVX2 __m256i weigh16(__m256i a, __m256i wa, __m256i b, __m256i wb) {
    __m256i sum = _mm256_add_epi16(_mm256_mullo_epi16(a, wa), _mm256_mullo_epi16(b, wb));
    return _mm256_srli_epi16(_mm256_add_epi16(sum, _mm256_set1_epi16(128)), 8);
}

/// Eight 64-bit texel pairs (left texel low, right texel high) as the eight left texels and
/// the eight right ones, in pixel order.
static inline AVX2 void split_pairs(__m256i first4, __m256i last4, __m256i *left, __m256i *right) {
    __m256 a = _mm256_castsi256_ps(first4), b = _mm256_castsi256_ps(last4);
    *left = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88)), 0xD8);
    *right = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8);
}

/// Eight bilinear samples at the 16.16 positions in `us`, `vs` (texels to the right and below
/// inside the image), into `out`.
static inline AVX2 void bilinear8(const uint32_t *pixels, long width, __m256i us, __m256i vs, uint32_t *out) {
    const __m256i low_bytes = _mm256_set1_epi32(0x00FF00FF);
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256i full = _mm256_set1_epi32(256);
    int32_t offsets[8];
    __m256i offset = _mm256_add_epi32(
        _mm256_mullo_epi32(_mm256_srai_epi32(vs, 16), _mm256_set1_epi32((int32_t)width)), _mm256_srai_epi32(us, 16));
    _mm256_storeu_si256((__m256i *)offsets, offset);
    uint64_t top[8], bottom[8];
    for (int k = 0; k < 8; k++) {
        memcpy(&top[k], pixels + offsets[k], 8);
        memcpy(&bottom[k], pixels + offsets[k] + width, 8);
    }
    __m256i top_left, top_right, bottom_left, bottom_right;
    split_pairs(
        _mm256_loadu_si256((const __m256i *)top), _mm256_loadu_si256((const __m256i *)(top + 4)), &top_left,
        &top_right);
    split_pairs(
        _mm256_loadu_si256((const __m256i *)bottom), _mm256_loadu_si256((const __m256i *)(bottom + 4)), &bottom_left,
        &bottom_right);
    __m256i fx = _mm256_and_si256(_mm256_srai_epi32(us, 8), byte);
    __m256i fy = _mm256_and_si256(_mm256_srai_epi32(vs, 8), byte);
    __m256i right = lanes(fx), left = lanes(_mm256_sub_epi32(full, fx));
    __m256i below = lanes(fy), above = lanes(_mm256_sub_epi32(full, fy));
#define RB(p) _mm256_and_si256((p), low_bytes)
#define AG(p) _mm256_and_si256(_mm256_srli_epi32((p), 8), low_bytes)
    __m256i upper_rb = weigh16(RB(top_left), left, RB(top_right), right);
    __m256i upper_ag = weigh16(AG(top_left), left, AG(top_right), right);
    __m256i lower_rb = weigh16(RB(bottom_left), left, RB(bottom_right), right);
    __m256i lower_ag = weigh16(AG(bottom_left), left, AG(bottom_right), right);
#undef RB
#undef AG
    __m256i rb = weigh16(upper_rb, above, lower_rb, below);
    __m256i ag = weigh16(upper_ag, above, lower_ag, below);
    store8(out, _mm256_or_si256(rb, _mm256_slli_epi32(ag, 8)));
}

/// The samples of `vitrine_bilinear_run_avx2`, eight at a time; how many it wrote.
static inline AVX2 long bilinear_run8(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count, uint32_t *out) {
    const __m256i steps = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // Positions in 32-bit lanes, stepped with wrapping arithmetic as the Swift lanes are.
    __m256i us = _mm256_add_epi32(_mm256_set1_epi32(u), _mm256_mullo_epi32(steps, _mm256_set1_epi32(du)));
    __m256i vs = _mm256_add_epi32(_mm256_set1_epi32(v), _mm256_mullo_epi32(steps, _mm256_set1_epi32(dv)));
    const __m256i step_u = _mm256_set1_epi32((int32_t)((uint32_t)du * 8u));
    const __m256i step_v = _mm256_set1_epi32((int32_t)((uint32_t)dv * 8u));
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        bilinear8(pixels, width, us, vs, out + i);
        us = _mm256_add_epi32(us, step_u);
        vs = _mm256_add_epi32(vs, step_v);
    }
    return i;
}

AVX2 long vitrine_bilinear_run_avx2(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count,
    uint32_t *out) {
    return bilinear_run8(pixels, width, u, v, du, dv, count, out);
}

AVX2 void vitrine_bilinear_runs16_avx2(
    const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out) {
    for (long k = 0; k < count; k++) {
        const int32_t *run = runs + 4 * k;
        bilinear_run8(pixels, width, run[0], run[1], run[2], run[3], 16, out + 16 * k);
    }
}

/// `GradientSampler.fillAxial`'s pixels, eight at a time: the table index of each (its 16.16
/// place clamped to the table, rounded half up), its entry loaded, the dither thresholds of its
/// column added to the 8.4 channels, four bits dropped and the channels packed to bytes.
AVX2 long vitrine_gradient_axial_avx2(
    const uint64_t *table, int64_t u, int64_t du, int64_t top, const uint64_t *thresholds, long count,
    uint32_t *out) {
    const __m256i zero = _mm256_setzero_si256(), highest = _mm256_set1_epi64x(top);
    const __m256i half = _mm256_set1_epi64x(32768);
    const __m256i dither = _mm256_loadu_si256((const __m256i *)thresholds);
    // The places of pixels 0…3 and 4…7.
    __m256i first = _mm256_setr_epi64x(u, u + du, u + 2 * du, u + 3 * du);
    __m256i second = _mm256_add_epi64(first, _mm256_set1_epi64x(4 * du));
    const __m256i step = _mm256_set1_epi64x(8 * du);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i a = _mm256_andnot_si256(_mm256_cmpgt_epi64(zero, first), first);
        __m256i b = _mm256_andnot_si256(_mm256_cmpgt_epi64(zero, second), second);
        a = _mm256_blendv_epi8(a, highest, _mm256_cmpgt_epi64(a, highest));
        b = _mm256_blendv_epi8(b, highest, _mm256_cmpgt_epi64(b, highest));
        a = _mm256_srli_epi64(_mm256_add_epi64(a, half), 16);
        b = _mm256_srli_epi64(_mm256_add_epi64(b, half), 16);
        // Loaded one by one: a gather is slower than its eight loads on the processors at hand.
        int64_t at[8];
        _mm256_storeu_si256((__m256i *)at, a);
        _mm256_storeu_si256((__m256i *)(at + 4), b);
        __m256i ea = _mm256_setr_epi64x(
            (long long)table[at[0]], (long long)table[at[1]], (long long)table[at[2]], (long long)table[at[3]]);
        __m256i eb = _mm256_setr_epi64x(
            (long long)table[at[4]], (long long)table[at[5]], (long long)table[at[6]], (long long)table[at[7]]);
        ea = _mm256_srli_epi16(_mm256_add_epi16(ea, dither), 4);
        eb = _mm256_srli_epi16(_mm256_add_epi16(eb, dither), 4);
        // Packed per 128-bit lane (pixels 0 1 4 5 | 2 3 6 7), then put in order.
        store8(out + i, _mm256_permute4x64_epi64(_mm256_packus_epi16(ea, eb), 0xD8));
        first = _mm256_add_epi64(first, step);
        second = _mm256_add_epi64(second, step);
    }
    return i;
}

/// `ProjectiveImageSampler.position`: the image position (16.16, about texel centres, clamped
/// to ±10⁶ texels) at device column `px`'s centre, the row's terms given; false at or behind
/// the eye. The same operations in the same order, so the same position to the bit.
static inline bool projective_position(
    const double *m, double u_row, double v_row, double w_row, long px, int64_t *u, int64_t *v) {
    // Swift never fuses a multiply and an add; neither may this.
#pragma STDC FP_CONTRACT OFF
    const double x = (double)px + 0.5;
    const double w = m[6] * x + w_row + m[8];
    if (!(w > 0)) return false;
    const double r = 1 / w;
    const double pu = (m[0] * x + u_row + m[2]) * r - 0.5, pv = (m[3] * x + v_row + m[5]) * r - 0.5;
    if (pu != pu || pv != pv) return false;
    *u = (int64_t)((pu < -1e6 ? -1e6 : (pu > 1e6 ? 1e6 : pu)) * 65536);
    *v = (int64_t)((pv < -1e6 ? -1e6 : (pv > 1e6 ? 1e6 : pv)) * 65536);
    return true;
}

/// `count` runs of sixteen bilinear samples (`vitrine_bilinear_runs16_avx2`'s) through the AVX-512
/// kernel when `avx512`, else the AVX2 one.
static inline AVX2 void bilinear_runs16(
    const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out, int avx512) {
    if (avx512) {
        vitrine_bilinear_runs16_avx512(pixels, width, runs, count, out);
    } else {
        vitrine_bilinear_runs16_avx2(pixels, width, runs, count, out);
    }
}

AVX2 long vitrine_projective_chunks_avx2(
    const uint32_t *pixels, long width, long height, const double *m, long x, long y, long from, long count,
    int64_t *start, uint32_t *out, int avx512) {
    const double cy = (double)y + 0.5;
    const double u_row = m[1] * cy, v_row = m[4] * cy, w_row = m[7] * cy;
    const int64_t max_x = width - 1, max_y = height - 1;
    int32_t runs[4 * 16];
    long waiting = 0, first = from;
    int64_t au = start[0], av = start[1];
    long i = from;
    for (; i + 16 <= count; i += 16) {
        int64_t bu, bv;
        if (!projective_position(m, u_row, v_row, w_row, x + i + 16, &bu, &bv)) break;
        const int64_t du = (bu - au) / 16, dv = (bv - av) / 16;
        const int64_t last_u = au + du * 15, last_v = av + dv * 15;
        const int64_t low_u = au < last_u ? au : last_u, high_u = au < last_u ? last_u : au;
        const int64_t low_v = av < last_v ? av : last_v, high_v = av < last_v ? last_v : av;
        if (!(low_u >= 0 && (high_u >> 16) < max_x && low_v >= 0 && (high_v >> 16) < max_y)) break;
        // The texels three chunks ahead, both rows: a row of the image seen at a slant begins a
        // new cache line every few pixels, and the hardware prefetcher only follows straight runs.
        int64_t ahead_x = (4 * bu - 3 * au) >> 16, ahead_y = (4 * bv - 3 * av) >> 16;
        ahead_x = ahead_x < 0 ? 0 : (ahead_x > max_x ? max_x : ahead_x);
        ahead_y = ahead_y < 0 ? 0 : (ahead_y > max_y ? max_y : ahead_y);
        const uint32_t *ahead = pixels + ahead_y * width + ahead_x;
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead_y < max_y ? ahead + width : ahead);
        int32_t *run = runs + 4 * waiting;
        run[0] = (int32_t)au;
        run[1] = (int32_t)av;
        run[2] = (int32_t)du;
        run[3] = (int32_t)dv;
        if (++waiting == 16) {
            bilinear_runs16(pixels, width, runs, waiting, out + first, avx512);
            waiting = 0;
            first = i + 16;
        }
        au = bu;
        av = bv;
    }
    if (waiting > 0) bilinear_runs16(pixels, width, runs, waiting, out + first, avx512);
    start[0] = au;
    start[1] = av;
    return i;
}

/// `GaussianBlur.blurColumns` for a box up to 256 wide: per output position the eight lanes'
/// rounded means written ((sum + half)·multiplier24 >> 24), then the position entering the box
/// added and the one leaving it taken away, in one step over the running sums.
AVX2 void vitrine_box_pass_avx2(
    const uint8_t *input, long from_lower, long from_upper, uint8_t *output, long to_lower, long to_upper,
    long columns, long size, long offset, uint32_t half, uint32_t multiplier24, int32_t *sums) {
    const __m256i halves = _mm256_set1_epi32((int)half), m = _mm256_set1_epi32((int)multiplier24);
    memset(sums, 0, (size_t)columns * sizeof(int32_t));
    for (long u = to_lower + offset; u < to_lower + offset + size; u++) {
        if (u < from_lower || u >= from_upper) continue;
        const uint8_t *values = input + (u - from_lower) * columns;
        for (long x = 0; x < columns; x++) sums[x] += values[x];
    }
    for (long u = to_lower; u < to_upper; u++) {
        uint8_t *out = output + (u - to_lower) * columns;
        const long entering = u + offset + size, leaving = u + offset;
        const uint8_t *added =
            entering >= from_lower && entering < from_upper ? input + (entering - from_lower) * columns : NULL;
        const uint8_t *taken =
            leaving >= from_lower && leaving < from_upper ? input + (leaving - from_lower) * columns : NULL;
        long x = 0;
        for (; x + 8 <= columns; x += 8) {
            __m256i sum = _mm256_loadu_si256((const __m256i *)(sums + x));
            // The means (each at most 255) packed to bytes: 32 → 16 → 8 bits within each
            // 128-bit half, then the halves' first four bytes side by side.
            __m256i mean = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_add_epi32(sum, halves), m), 24);
            __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(mean, mean), _mm256_setzero_si256());
            __m128i eight = _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
            _mm_storel_epi64((__m128i *)(out + x), eight);
            if (added) sum = _mm256_add_epi32(sum, widen8(load_bytes8(added + x)));
            if (taken) sum = _mm256_sub_epi32(sum, widen8(load_bytes8(taken + x)));
            _mm256_storeu_si256((__m256i *)(sums + x), sum);
        }
        for (; x < columns; x++) {
            out[x] = (uint8_t)(((uint32_t)sums[x] + half) * multiplier24 >> 24);
            if (added) sums[x] += added[x];
            if (taken) sums[x] -= taken[x];
        }
    }
}

#else

// Elsewhere (arm64: NEON through Swift's SIMD types) the Swift loops handle every pixel.
int vitrine_pixels_have_avx2(void) { return 0; }
long vitrine_blend_pixels_avx2(uint32_t *dst, const uint32_t *src, long count, uint32_t factor) { return 0; }
long vitrine_blend_pixels_masked_avx2(
    uint32_t *dst, const uint32_t *src, long count, uint32_t factor, const uint8_t *mask) {
    return 0;
}
long vitrine_composite_pixels_avx2(uint32_t *dst, uint32_t *src, long count, uint32_t factor) { return 0; }
long vitrine_composite_over_avx2(
    uint32_t *dst, uint32_t *src, long count, uint32_t factor, uint32_t underlay, uint32_t scaled_underlay) {
    return 0;
}
long vitrine_blend_solid_avx2(uint32_t *dst, const uint8_t *coverage, long count, uint32_t color) { return 0; }
long vitrine_blend_constant_avx2(uint32_t *dst, long count, uint32_t color, uint32_t inverse) { return 0; }
int32_t vitrine_sweep_group_solid_avx2(int32_t *cells, int32_t sum, uint32_t *dst, uint32_t color, int even_odd) {
    return sum;
}
int32_t vitrine_sweep_last_group_solid_avx2(
    int32_t *cells, int32_t sum, uint32_t *dst, long count, uint32_t color, int even_odd) {
    return sum;
}
long vitrine_sweep_rows_solid_avx2(
    int32_t *cells, long cell_stride, uint64_t *marks, long words, const bool *events, const bool *conflicted,
    long rows, long end, uint32_t *row, long pixels_per_row, long prefetching_rows, long prefetch, uint32_t color,
    int even_odd, int avx512) {
    return 0;
}
long vitrine_bilinear_run_avx2(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count,
    uint32_t *out) {
    return 0;
}
void vitrine_bilinear_runs16_avx2(const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out) {}
long vitrine_projective_chunks_avx2(
    const uint32_t *pixels, long width, long height, const double *m, long x, long y, long from, long count,
    int64_t *start, uint32_t *out, int avx512) {
    return from;
}
long vitrine_gradient_axial_avx2(
    const uint64_t *table, int64_t u, int64_t du, int64_t top, const uint64_t *thresholds, long count,
    uint32_t *out) {
    return 0;
}

#endif
