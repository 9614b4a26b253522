// <wchar.h>, which Swift's Glibc module does not import: VitrineGraphics wants wmemset, the C
// library's 32-bit fill (the widest stores the CPU has, chosen at run time).
#include <wchar.h>
