import VitrineAnimation
import VitrineGraphics
import VitrineSystem
import VitrineTOML

/// Reads and validates a playlist config: everything `vitrine play` will use (images, fonts,
/// path data, key paths, value types, ids) is checked at load, and every problem is reported,
/// each as `FILE:LINE:COLUMN: scene 'NAME' › layer 'ID' › KEY: message`.
public enum PlaylistLoader {
    /// Canvas sides above this are refused (a typo must not allocate gigabytes).
    public static let maximumCanvasSide = 16384.0
    /// The most pixels a canvas may have (8192 × 8192): frames of the canvas's own size
    /// (`vitrine render` without `--size`, the headless backend) stay within 256 MiB.
    public static let maximumCanvasPixels = 8192.0 * 8192.0

    /// When a load decodes the images its config names.
    public enum ImageDecoding: Sendable {
        /// All of them, before the load returns: every image is checked (`vitrine check`, a
        /// reload).
        case now
        /// Those of the scene a player shows first (the first named `firstScene`, or the
        /// first scene) before the load returns; the others are read and their headers
        /// checked, and `Playlist.pendingImages` decodes them.
        case firstScene(named: String?)
    }

    /// Loads `file`; throws `TOMLFieldErrors` with every error.
    public static func load(file: String) throws -> Playlist {
        try load(file: file, registry: .standard)
    }

    /// Loads `file`, decoding its images as `decoding` says.
    public static func load(file: String, decoding: ImageDecoding) throws -> Playlist {
        try load(file: file, registry: .standard, decoding: decoding)
    }

    /// Loads `file` with the layer types of `registry`.
    public static func load(
        file: String, registry: LayerTypeRegistry, decoding: ImageDecoding = .now
    ) throws -> Playlist {
        let bytes: [UInt8]
        do { bytes = try Files.read(file, limit: maximumFileBytes) } catch let error as FileError {
            throw TOMLFieldErrors([TOMLFieldError(file: file, position: .start, key: nil, message: error.reason)])
        }
        return try parse(bytes: bytes, file: file, registry: registry, decoding: decoding)
    }

    /// Parses a config from its text; `file` names it in errors and locates relative image paths.
    public static func parse(
        bytes: [UInt8], file: String, registry: LayerTypeRegistry = .standard, decoding: ImageDecoding = .now
    ) throws -> Playlist {
        let document: TOMLTable
        do { document = try TOML.parse(bytes: bytes, file: file) } catch let error as TOMLParseError {
            throw TOMLFieldErrors([TOMLFieldError(error, file: file)])
        }
        let top = TOMLReader(document, file: file)
        var errors = TOMLFieldErrors()
        try errors.collect { try top.rejectUnknownKeys(allowed: ["player", "scene"]) }
        var settings = PlayerSettings()
        if let player = try errors.collect({ try top.table("player") }) {
            settings = try readSettings(player.within("player"), errors: &errors)
        }
        let defers: Bool, firstSceneName: String?
        switch decoding {
        case .now: (defers, firstSceneName) = (false, nil)
        case .firstScene(let name): (defers, firstSceneName) = (true, name)
        }
        let resources = ConfigResources(configFile: file, defersDecoding: defers)
        var scenes: [SceneDefinition] = []
        var firstByName: [String: SourcePosition] = [:]
        let sceneTables = try errors.collect { try top.arrayOfTables("scene") } ?? []
        if sceneTables.isEmpty && top.node("scene") == nil {
            errors.append(top.error("scene", "the playlist has no [[scene]]", at: .start))
        }
        for (index, table) in sceneTables.enumerated() {
            let loader = SceneLoader(table: table, index: index, registry: registry, resources: resources)
            resources.sceneBeingLoaded = index
            let scene = try loader.load(errors: &errors)
            guard let name = scene?.name ?? loader.name else { continue }
            if let first = firstByName[name] {
                errors.append(
                    loader.reader.valueError("name", "duplicate scene name '\(name)' (first at line \(first.line))"))
            } else {
                firstByName[name] = loader.reader.position(of: "name")
            }
            if let scene { scenes.append(scene) }
        }
        // The first scene's images now (scenes are numbered as loaded when none is in error;
        // with errors, all are decoded, to report every one); the others' when the player asks.
        let first = scenes.firstIndex { $0.name == firstSceneName } ?? 0
        var later: [DeferredDecoding] = []
        for decoding in resources.deferred {
            if decoding.scenes.contains(first) || decoding.isShownOutsideScenes || !errors.isEmpty {
                errors.append(contentsOf: TOMLFieldErrors(decoding.decode()))
            } else {
                later.append(decoding)
            }
        }
        try errors.throwIfAny()
        var playlist = Playlist(settings: settings, scenes: scenes, file: file)
        if !later.isEmpty { playlist.pendingImages = PendingImages(later) }
        return playlist
    }

    static func readSettings(_ r: TOMLReader, errors: inout TOMLFieldErrors) throws -> PlayerSettings {
        var s = PlayerSettings()
        try errors.collect { try r.rejectUnknownKeys(allowed: ConfigKeys.names(ConfigKeys.player)) }
        if let v = try errors.collect({ try r.int("fps") }) {
            if (1...240).contains(v) { s.fps = v } else { errors.append(r.valueError("fps", "must be from 1 to 240")) }
        }
        if let v = try errors.collect({ try r.color("background") }) { s.background = v }
        if let v = try errors.collect({ try r.bool("loop") }) { s.loop = v }
        if let v = try errors.collect({ try r.oneOf("transition", as: Transition.self) }) { s.transition = v }
        if let v = try errors.collect({ try r.double("transitionDuration", in: 0...3600) }) { s.transitionDuration = v }
        if let v = try errors.collect({ try r.int("rotation") }) {
            if [0, 90, 180, 270].contains(v) {
                s.rotation = v
            } else {
                errors.append(r.valueError("rotation", "must be 0, 90, 180 or 270 (degrees clockwise)"))
            }
        }
        if let v = try errors.collect({ try r.oneOf("fit", as: CanvasFit.self) }) { s.fit = v }
        if let shift = try errors.collect({ try r.table("pixelShift")?.within("pixelShift") }) {
            try errors.collect { try shift.rejectUnknownKeys(allowed: ["every", "by"]) }
            let every = try errors.collect { try shift.required("every", shift.double("every", in: 1...86_400)) }
            let by = try errors.collect { try shift.required("by", shift.int("by")) }
            if let by, !(1...16).contains(by) { errors.append(shift.valueError("by", "must be from 1 to 16 pixels")) }
            if let every, let by, (1...16).contains(by) { s.pixelShift = PixelShift(every: every, by: by) }
        }
        if r.contains("screenOn") { s.screenOn = readScreenSchedule(r, errors: &errors) }
        if let v = try errors.collect({ try r.size("canvas") }) {
            let sides = [v.width, v.height]
            if !sides.allSatisfy({ $0 >= 1 && $0 <= maximumCanvasSide && $0 == $0.rounded() }) {
                errors.append(r.valueError("canvas", "sides must be whole numbers from 1 to \(Int(maximumCanvasSide))"))
            } else if v.width * v.height > maximumCanvasPixels {
                errors.append(
                    r.valueError(
                        "canvas",
                        "\(Int(v.width))x\(Int(v.height)) is more than the \(Int(maximumCanvasPixels)) pixels (8192x8192) a canvas may have"
                    ))
            } else {
                s.canvas = v
            }
        }
        return s
    }
}

/// `[player] screenOn = [[DAYS, "HH:MM", "HH:MM"], …]`, every entry checked.
private func readScreenSchedule(_ r: TOMLReader, errors: inout TOMLFieldErrors) -> ScreenSchedule? {
    let key = "screenOn"
    let shape = "[DAYS, \"HH:MM\", \"HH:MM\"] (e.g. [\"Mon-Fri\", \"07:00\", \"19:00\"])"
    guard let node = r.node(key), let entries = node.value.arrayValue, !entries.isEmpty else {
        errors.append(r.valueError(key, "expected a list of periods \(shape)"))
        return nil
    }
    var periods: [ScreenSchedule.Period] = []
    let before = errors.errors.count
    for (index, entry) in entries.enumerated() {
        func fail(_ message: String) {
            errors.append(r.error(key, "period \(index + 1): \(message)", at: entry.position))
        }
        let parts = entry.value.arrayValue?.compactMap(\.value.stringValue) ?? []
        guard parts.count == 3, entry.value.arrayValue?.count == 3 else {
            fail("expected \(shape)")
            continue
        }
        guard let days = ScreenSchedule.days(parts[0]) else {
            fail("'\(parts[0].prefix(40))' is not days of the week (Mon-Fri, Sat, Mon,Wed,Fri, Fri-Mon or daily)")
            continue
        }
        guard let start = ScreenSchedule.minutes(parts[1], allowsEndOfDay: false) else {
            fail("start '\(parts[1].prefix(20))' is not a time from 00:00 to 23:59")
            continue
        }
        guard let end = ScreenSchedule.minutes(parts[2], allowsEndOfDay: true) else {
            fail("end '\(parts[2].prefix(20))' is not a time from 00:01 to 24:00")
            continue
        }
        guard start != end else {
            fail("start and end are the same time (a whole day is 00:00 to 24:00)")
            continue
        }
        periods.append(ScreenSchedule.Period(days: days, start: start, end: end))
    }
    return errors.errors.count == before ? ScreenSchedule(periods: periods) : nil
}

/// Reads one `[[scene]]` table.
struct SceneLoader {
    let reader: TOMLReader
    /// The name, when the table has a string `name` (also set when other keys are wrong).
    let name: String?
    let registry: LayerTypeRegistry
    let resources: ConfigResources

    init(table: TOMLReader, index: Int, registry: LayerTypeRegistry, resources: ConfigResources) {
        let name = table.node("name")?.value.stringValue
        self.name = name
        reader = table.within(name.map { "scene '\($0)'" } ?? "scene \(index + 1)")
        self.registry = registry
        self.resources = resources
    }

    func load(errors: inout TOMLFieldErrors) throws -> SceneDefinition? {
        let r = reader
        let before = errors.errors.count
        try errors.collect { try r.rejectUnknownKeys(allowed: ConfigKeys.names(ConfigKeys.scene)) }
        let name = try errors.collect { try r.required("name", r.string("name")) }
        if let name, name.isEmpty { errors.append(r.valueError("name", "must not be empty")) }
        var duration: SceneDuration?
        if let node = r.node("duration") {
            if node.value.stringValue == "progress" {
                duration = .untilProgressComplete
            } else if let seconds = node.value.doubleValue {
                if seconds.isFinite && seconds > 0 {
                    duration = .seconds(seconds)
                } else {
                    errors.append(r.valueError("duration", "must be a positive number of seconds"))
                }
            } else {
                errors.append(
                    r.valueError(
                        "duration", "expected a number of seconds or \"progress\", found \(node.value.kindDescription)")
                )
            }
        } else {
            errors.append(r.error("duration", "missing required key", at: r.table.position))
        }
        var progressSource: ProgressSourceSpec?
        if let text = try errors.collect({ try r.string("progressSource") }) {
            if let spec = ProgressSourceSpec(text) {
                progressSource = spec
            } else {
                errors.append(r.valueError("progressSource", "'\(text)' is not \"fifo:/path\" or \"file:/path\""))
            }
        }
        if duration == .untilProgressComplete && progressSource == nil && !r.contains("progressSource") {
            errors.append(r.valueError("duration", "duration = \"progress\" needs a progressSource"))
        }
        let background = try errors.collect { try r.color("background") }
        let layerTables = try errors.collect { try r.arrayOfTables("layer") }
        let layers = try LayerLoader.loadLayers(
            layerTables ?? [], registry: registry, resources: resources, errors: &errors)
        let messages = try errors.collect { try readMessages(layers: layers) } ?? []
        guard errors.errors.count == before, let name, let duration else { return nil }
        return SceneDefinition(
            name: name, duration: duration, progressSource: progressSource, background: background,
            layers: layers, messages: messages, position: r.table.position)
    }

    /// `messages = [[seconds, "text"], …]`: times not negative and not going back, texts within
    /// a text layer's limit, and a text layer with id "message" to show them.
    private func readMessages(layers: [LayerDefinition]) throws -> [SceneMessage]? {
        let r = reader
        guard let node = r.node("messages") else { return nil }
        guard let items = node.value.arrayValue else {
            throw r.valueError(
                "messages", "expected an array of [seconds, \"text\"] pairs, found \(node.value.kindDescription)")
        }
        var messages: [SceneMessage] = []
        for (index, item) in items.enumerated() {
            guard let pair = item.value.arrayValue, pair.count == 2, let time = pair[0].value.doubleValue,
                let text = pair[1].value.stringValue
            else {
                throw r.valueError("messages", "item \(index + 1): expected [seconds, \"text\"]")
            }
            guard time.isFinite, time >= 0, time >= (messages.last?.time ?? 0) else {
                throw r.valueError("messages", "item \(index + 1): times must be seconds from 0 on, not going back")
            }
            guard text.utf8.count <= LayerTypeRegistry.maximumTextBytes else {
                throw r.valueError(
                    "messages", "item \(index + 1): at most \(LayerTypeRegistry.maximumTextBytes) bytes of text")
            }
            messages.append(SceneMessage(time: time, text: text))
        }
        guard layers.contains(where: { $0.id == "message" && $0.type.layerClass is TextLayer.Type }) else {
            throw r.valueError("messages", "the scene needs a text layer with id \"message\" to show them")
        }
        return messages
    }
}
