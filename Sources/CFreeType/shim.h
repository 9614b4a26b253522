#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include FT_BBOX_H

/* FreeType's load flags and face flags are macros; Swift sees these named constants and
   functions instead, never the macros themselves. */

/* Glyph loading: outlines in font units, untouched by hinting, never an embedded bitmap. */
static const FT_Int32 VitrineFTLoadNoScale = FT_LOAD_NO_SCALE;
static const FT_Int32 VitrineFTLoadNoHinting = FT_LOAD_NO_HINTING;
static const FT_Int32 VitrineFTLoadNoBitmap = FT_LOAD_NO_BITMAP;

/* True when the face has a kerning table FT_Get_Kerning can read (the legacy 'kern' table). */
static inline int vitrine_ft_face_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) != 0; }

/* True when the face holds outlines (not only bitmap strikes). */
static inline int vitrine_ft_face_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) != 0; }
