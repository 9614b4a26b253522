/// The config reference, generated from the registry and the loader's key lists (never kept
/// by hand): what `vitrine scenes` prints, as aligned text or as Markdown for the README.
public enum ConfigReference {
    /// The output form.
    public enum Format { case text, markdown }

    /// Every table of the config with its keys, then every layer type with its properties
    /// (type, default, animatable, meaning), then the animation keys.
    public static func render(_ format: Format, registry: LayerTypeRegistry = .standard) -> String {
        var out = Output(format: format)
        out.heading("Config reference", level: 1)
        out.paragraph(
            "Keys are Core Animation's property names; times in seconds, angles in radians, colours \"#rrggbb\" or \"#rrggbbaa\", sizes in pixels of the canvas."
        )
        out.section("[player]", keys: ConfigKeys.player)
        out.section("[[scene]]", keys: ConfigKeys.scene)
        out.section(
            "[[scene.layer]]", keys: ConfigKeys.layer,
            note: "Besides these, a layer takes the properties of its type: " + registry.names.joined(separator: ", ")
                + ".")
        // Keys every type takes alike are listed once; each type then lists its own.
        let common = commonProperties(of: registry)
        let commonKeys = Set(common.map(\.key))
        out.heading("Properties of every layer type", level: 3)
        out.paragraph("Every layer type below takes these too (CALayer's properties).")
        out.table(["key", "type", "default", "animatable", "meaning"], common.map(row))
        for type in registry.types {
            out.heading("type = \"\(type.name)\"", level: 3)
            var note = type.summary
            if !type.requiredKeys.isEmpty { note += " Requires " + type.requiredKeys.joined(separator: ", ") + "." }
            out.paragraph(note)
            var rows = type.properties.filter { !commonKeys.contains($0.key) }.map(row)
            if type.acceptsShapeKeys {
                rows += ConfigKeys.shape.map { [$0.key, $0.type, $0.defaultValue, "no", $0.doc + " Stands for path."] }
            }
            if rows.isEmpty {
                out.paragraph("No keys of its own.")
            } else {
                out.table(["key", "type", "default", "animatable", "meaning"], rows)
            }
        }
        out.section(
            "[[scene.layer.animation]]", keys: ConfigKeys.animationTiming,
            note: "Animations of a key path (basic, keyframe, spring) also take:")
        out.table(["key", "type", "default", "meaning"], rows(ConfigKeys.animationProperty))
        out.paragraph("type = \"basic\" (and \"spring\"):")
        out.table(["key", "type", "default", "meaning"], rows(ConfigKeys.animationBasic))
        out.paragraph("type = \"keyframe\":")
        out.table(["key", "type", "default", "meaning"], rows(ConfigKeys.animationKeyframe))
        out.paragraph("type = \"spring\":")
        out.table(["key", "type", "default", "meaning"], rows(ConfigKeys.animationSpring))
        out.paragraph("type = \"group\":")
        out.table(["key", "type", "default", "meaning"], rows(ConfigKeys.animationGroup))
        return out.text
    }

    /// The properties every registered type has with the same type, default, animatability and
    /// meaning, in the first type's order.
    static func commonProperties(of registry: LayerTypeRegistry) -> [ConfigProperty] {
        guard let first = registry.types.first else { return [] }
        return first.properties.filter { p in
            registry.types.allSatisfy { type in
                guard let q = type.property(p.key) else { return false }
                return q.type.name == p.type.name && q.formattedDefault == p.formattedDefault
                    && q.isAnimatable == p.isAnimatable && q.doc == p.doc
            }
        }
    }

    /// A property's row; a long list of cases goes to the meaning column, keeping the type
    /// column narrow.
    private static func row(_ p: ConfigProperty) -> [String] {
        if let cases = p.type.cases, p.type.name.count > 24 {
            return [
                p.key, "enum", p.formattedDefault, p.isAnimatable ? "yes" : "no",
                p.doc + " One of: " + cases.joined(separator: ", ") + "."
            ]
        }
        return [p.key, p.type.name, p.formattedDefault, p.isAnimatable ? "yes" : "no", p.doc]
    }

    private static func rows(_ keys: [ConfigKey]) -> [[String]] {
        keys.map { [$0.key, $0.type, $0.defaultValue, $0.doc] }
    }

    /// Accumulates the reference in one format.
    private struct Output {
        let format: Format
        var text = ""

        mutating func heading(_ title: String, level: Int) {
            if !text.isEmpty && !text.hasSuffix("\n\n") { text += "\n" }
            switch format {
            // One level down in Markdown: the reference sits under a heading of the README.
            case .markdown: text += String(repeating: "#", count: level + 1) + " " + title + "\n\n"
            case .text: text += title + "\n" + String(repeating: level == 1 ? "=" : "-", count: title.count) + "\n"
            }
        }

        mutating func paragraph(_ line: String) {
            text += line + "\n" + (format == .markdown ? "\n" : "")
        }

        mutating func section(_ title: String, keys: [ConfigKey], note: String? = nil) {
            heading(title, level: 2)
            table(["key", "type", "default", "meaning"], ConfigReference.rows(keys))
            if let note { paragraph(note) }
        }

        /// A table; in text the columns are padded to line up and the last one runs free.
        mutating func table(_ header: [String], _ rows: [[String]]) {
            switch format {
            case .markdown:
                func line(_ cells: [String]) -> String {
                    "| " + cells.map { $0.replacingPipes }.joined(separator: " | ") + " |\n"
                }
                text += line(header) + "|" + String(repeating: "---|", count: header.count) + "\n"
                for row in rows { text += line(row) }
                text += "\n"
            case .text:
                let all = [header.map { $0.uppercased() }] + rows
                let widths = header.indices.dropLast().map { column in all.map { $0[column].count }.max() ?? 0 }
                for row in all {
                    var line = "  "
                    for (column, cell) in row.enumerated() {
                        if column < widths.count { line += cell.padding(to: widths[column] + 2) } else { line += cell }
                    }
                    while line.last == " " { line.removeLast() }
                    text += line + "\n"
                }
                text += "\n"
            }
        }
    }
}

private extension String {
    var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
    func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
