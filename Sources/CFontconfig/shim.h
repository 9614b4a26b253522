#include <fontconfig/fontconfig.h>

/* Fontconfig names pattern properties with string macros (FC_FAMILY, FC_FILE, ...); Swift uses
   these accessors instead, never the macros themselves. */

static inline FcBool vitrine_fc_pattern_add_family(FcPattern *p, const char *family) {
    return FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)family);
}
static inline FcBool vitrine_fc_pattern_add_charset(FcPattern *p, const FcCharSet *charset) {
    return FcPatternAddCharSet(p, FC_CHARSET, charset);
}
static inline FcResult vitrine_fc_pattern_file(const FcPattern *p, FcChar8 **file) {
    return FcPatternGetString(p, FC_FILE, 0, file);
}
static inline FcResult vitrine_fc_pattern_index(const FcPattern *p, int *index) {
    return FcPatternGetInteger(p, FC_INDEX, 0, index);
}
static inline FcResult vitrine_fc_pattern_family(const FcPattern *p, FcChar8 **family) {
    return FcPatternGetString(p, FC_FAMILY, 0, family);
}
static inline FcResult vitrine_fc_pattern_charset(const FcPattern *p, FcCharSet **charset) {
    return FcPatternGetCharSet(p, FC_CHARSET, 0, charset);
}
static inline FcResult vitrine_fc_pattern_outline(const FcPattern *p, FcBool *outline) {
    return FcPatternGetBool(p, FC_OUTLINE, 0, outline);
}

/* The properties FcFontList reports: where each font lives. */
static inline FcObjectSet *vitrine_fc_object_set_file_index(void) {
    return FcObjectSetBuild(FC_FILE, FC_INDEX, (char *)0);
}
