import VitrineGraphics

/// How a text layer shortens text that does not fit its bounds (kCATruncation…): an ellipsis
/// replaces what is left out at the start, the middle or the end.
public enum TextTruncationMode: String, Sendable, CaseIterable {
    case none, start, middle, end
}

/// Text set in a rectangle the way CATextLayer sets it: lines from the top edge (the first
/// baseline one ascent below it), one line per line break and, when wrapping, as many words per
/// line as fit the width (CJK text breaks between any two characters; a word wider than the
/// line breaks between characters); each line aligned on its own. With a truncation mode, a
/// line wider than the bounds is shortened with an ellipsis, and wrapped text that is taller
/// than the bounds ends with the last line that fits, shortened to show that more follows.
/// Used by `TextLayer` and by the label of `ProgressLayer`.
enum TextBox {
    /// Draws `string` in `family` at `size` pixels per em; a font that cannot be loaded (or a
    /// size that is not positive) draws nothing.
    static func draw(
        _ string: String, family: String, size: Double, color: Color, alignment: TextAlignmentMode,
        in rect: Rect, wrapped: Bool = false, truncation: TextTruncationMode = .none, into ctx: GraphicsContext
    ) {
        guard let font = try? Font.recent(family: family, size: size) else { return }
        draw(
            string, font: font, color: color, alignment: alignment, in: rect, wrapped: wrapped,
            truncation: truncation, into: ctx)
    }

    /// Draws `string` with the font size whose line height is `lineHeight`.
    static func draw(
        _ string: String, family: String, lineHeight: Double, color: Color, alignment: TextAlignmentMode,
        in rect: Rect, into ctx: GraphicsContext
    ) {
        guard let probe = try? Font.recent(family: family, size: lineHeight), probe.lineHeight > 0 else { return }
        draw(
            string, family: family, size: lineHeight * lineHeight / probe.lineHeight, color: color,
            alignment: alignment, in: rect, into: ctx)
    }

    static func draw(
        _ string: String, font: Font, color: Color, alignment: TextAlignmentMode, in rect: Rect,
        wrapped: Bool, truncation: TextTruncationMode = .none, into ctx: GraphicsContext
    ) {
        // Only what the clip lets through is outlined: a long string costs what is seen.
        let visible = visibleRect(in: ctx)
        var baseline = rect.minY + font.ascent
        // One line (a label drawn every frame) is set without a list of lines.
        if isOneLine(string, wrapped: wrapped, truncation: truncation) {
            if let visible, baseline - font.lineHeight > visible.maxY { return }
            drawLine(
                string, width: font.advance(of: string), font: font, color: color, alignment: alignment, in: rect,
                baseline: baseline, visible: visible, into: ctx)
            return
        }
        for line in lines(of: string, font: font, in: rect.size, wrapped: wrapped, truncation: truncation) {
            if let visible, baseline - font.lineHeight > visible.maxY { break }
            drawLine(
                line.text, width: line.width, font: font, color: color, alignment: alignment, in: rect,
                baseline: baseline, visible: visible, into: ctx)
            baseline += font.lineHeight
        }
    }

    /// The box of the ink `draw` puts down for unwrapped text with these arguments (the
    /// outlines of the glyphs as it places them) down to the bottom of `rect`, the lines below
    /// it left out: `.null` when it draws nothing.
    static func inkBounds(
        _ string: String, font: Font, alignment: TextAlignmentMode, in rect: Rect, truncation: TextTruncationMode
    ) -> Rect {
        var ink = Rect.null
        var baseline = rect.minY + font.ascent
        let lines =
            isOneLine(string, wrapped: false, truncation: truncation)
            ? [(text: string, width: font.advance(of: string))]
            : lines(of: string, font: font, in: rect.size, wrapped: false, truncation: truncation)
        for line in lines {
            if baseline - font.lineHeight > rect.maxY { break }
            let origin = Point(x: lineStart(width: line.width, alignment: alignment, in: rect), y: baseline)
            ink = ink.union(font.boundingBox(of: line.text, at: origin))
            baseline += font.lineHeight
        }
        return ink
    }

    /// Whether `string` is set as one line as it is: no wrapping, no truncation, no line break.
    private static func isOneLine(_ string: String, wrapped: Bool, truncation: TextTruncationMode) -> Bool {
        !wrapped && truncation == .none && !string.contains(where: \.isNewline)
    }

    /// Where a line `width` pixels wide starts in `rect` by `alignment` (justified lines are
    /// set left-aligned).
    private static func lineStart(width: Double, alignment: TextAlignmentMode, in rect: Rect) -> Double {
        let slack = rect.width - width
        switch alignment {
        case .natural, .left, .justified: return rect.minX
        case .center: return rect.minX + slack / 2
        case .right: return rect.minX + slack
        }
    }

    /// One line of `width` pixels placed in `rect` by `alignment`, its baseline at `baseline`;
    /// outlined in the thread's scratch path, so a line drawn every frame allocates nothing.
    private static func drawLine(
        _ text: String, width: Double, font: Font, color: Color, alignment: TextAlignmentMode, in rect: Rect,
        baseline: Double, visible: Rect?, into ctx: GraphicsContext
    ) {
        guard !text.isEmpty else { return }
        let x = lineStart(width: width, alignment: alignment, in: rect)
        let scratch = ScratchPath.ofThisThread
        scratch.path.removeAll(keepingCapacity: true)
        font.appendPath(for: text, at: Point(x: x, y: baseline), visibleIn: visible, to: &scratch.path)
        ctx.fill(scratch.path, color: color)
    }

    /// The part of the user space that can reach a pixel: the clip's box mapped back through
    /// the transform; nil when the transform cannot be inverted (then nothing is culled).
    static func visibleRect(in ctx: GraphicsContext) -> Rect? {
        let box = ctx.clipBoundingBox
        guard let inverse = ctx.transform.inverted() else { return nil }
        let device = Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
        let user = inverse.apply(to: device)
        return user.minX.isFinite && user.maxX.isFinite && user.minY.isFinite && user.maxY.isFinite ? user : nil
    }

    /// The lines of `string` with their advance widths: split at line breaks and, when
    /// `wrapped`, at break opportunities to fit `size.width`. With `truncation`, lines wider
    /// than the width are shortened, and wrapped lines below the height are left out, the last
    /// one kept ending in an ellipsis.
    static func lines(
        of string: String, font: Font, in size: Size, wrapped: Bool, truncation: TextTruncationMode = .none
    ) -> [(text: String, width: Double)] {
        var out: [(text: String, width: Double)] = []
        let paragraphs = string.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let width = size.width.isNaN ? 0 : size.width
        for paragraph in paragraphs {
            guard wrapped, width > 0 else {
                let text = String(paragraph)
                out.append((text, font.advance(of: text)))
                continue
            }
            wrap(paragraph, font: font, width: width, into: &out)
        }
        guard truncation != .none, width > 0 else { return out }
        // Wrapped text keeps the lines that fit the height (at least one); the last kept line
        // shows that more follows.
        let fit = font.lineHeight > 0 && size.height < 1e9 ? max(1, Int(size.height / font.lineHeight)) : out.count
        if wrapped, out.count > fit {
            let rest = out[(fit - 1)...].map(\.text).joined(separator: " ")
            out.removeSubrange((fit - 1)...)
            let shortened = truncated(rest, font: font, width: width, mode: truncation, force: true)
            out.append((shortened, font.advance(of: shortened)))
        }
        return out.map { line in
            guard line.width > width else { return line }
            let shortened = truncated(line.text, font: font, width: width, mode: truncation, force: false)
            return (shortened, font.advance(of: shortened))
        }
    }

    /// Breaks one paragraph into lines no wider than `width` where possible.
    private static func wrap(
        _ paragraph: Substring, font: Font, width: Double, into out: inout [(text: String, width: Double)]
    ) {
        var line = ""
        func flush() {
            var text = line
            while text.last == " " { text.removeLast() }
            out.append((text, font.advance(of: text)))
            line = ""
        }
        for unit in breakUnits(of: paragraph) {
            let candidate = line + unit
            var trimmed = candidate
            while trimmed.last == " " { trimmed.removeLast() }
            let candidateWidth = font.advance(of: trimmed)
            if candidateWidth <= width || line.isEmpty && font.advance(of: unit) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { flush() }
            // A unit wider than a whole line breaks between its characters.
            var piece = ""
            for character in unit {
                let next = piece + String(character)
                if !piece.isEmpty, character != " ", font.advance(of: next) > width {
                    line = piece
                    flush()
                    piece = String(character)
                } else {
                    piece = next
                }
            }
            line = piece
        }
        flush()
    }

    /// The pieces a line may break after: a word with the spaces after it, or one CJK
    /// character (with the closing punctuation that must not start a line).
    static func breakUnits(of text: Substring) -> [String] {
        var units: [String] = []
        var current = ""
        var afterSpace = false
        for character in text {
            if character == " " {
                current.append(character)
                afterSpace = true
                continue
            }
            let wide = isCJK(character)
            let closing = closingPunctuation.contains(character)
            if (afterSpace || (wide && !closing) || (!current.isEmpty && isCJK(current.last!) && !closing))
                && !current.isEmpty
            {
                units.append(current)
                current = ""
            }
            current.append(character)
            afterSpace = false
        }
        if !current.isEmpty { units.append(current) }
        return units
    }

    /// Punctuation that does not begin a line in CJK text (it stays with the character before).
    private static let closingPunctuation: Set<Character> = [
        "、", "。", "，", "．", "：", "；", "！", "？", "）", "」", "』", "】", "〉", "》", "ー", "々", "…", ",", ".", "!", "?", ")"
    ]

    /// Whether a line may break before or after `character` without a space: CJK ideographs,
    /// kana, Hangul syllables, CJK punctuation and full-width forms.
    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF,
            0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// `text` shortened with an ellipsis to fit `width` by `mode` (`force`: even if it fits,
    /// to show that text was left out after it); as much as fits is kept.
    static func truncated(_ text: String, font: Font, width: Double, mode: TextTruncationMode, force: Bool) -> String {
        let ellipsis = "…"
        if !force, font.advance(of: text) <= width { return text }
        let characters = Array(text)
        // The most characters kept for which the shortened line fits (binary search: the
        // width grows with the count kept).
        func shortened(keeping n: Int) -> String {
            switch mode {
            case .none, .end:
                var head = String(characters[..<n])
                while head.last == " " { head.removeLast() }
                return head + ellipsis
            case .start:
                return ellipsis + String(characters[(characters.count - n)...])
            case .middle:
                let front = (n + 1) / 2, back = n / 2
                return String(characters[..<front]) + ellipsis + String(characters[(characters.count - back)...])
            }
        }
        var low = 0, high = force && mode == .end ? characters.count : characters.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if font.advance(of: shortened(keeping: mid)) <= width { low = mid } else { high = mid - 1 }
        }
        return font.advance(of: shortened(keeping: low)) <= width ? shortened(keeping: low) : ""
    }
}
