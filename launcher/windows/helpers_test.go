package windows

import "unicode/utf16"

func utf16Decode(b []uint16) []rune { return utf16.Decode(b) }
