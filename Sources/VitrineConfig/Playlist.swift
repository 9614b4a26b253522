import VitrineAnimation
import VitrineGraphics
import VitrineTOML

/// A loaded, validated config: the player settings and the scenes in play order.
public struct Playlist {
    /// The `[player]` table.
    public var settings: PlayerSettings
    /// The `[[scene]]` tables, in order.
    public var scenes: [SceneDefinition]
    /// The config file it was loaded from.
    public var file: String
    /// The images of scenes other than the first, still to decode, when the load left them for
    /// later (`PlaylistLoader.ImageDecoding.firstScene`); nil when every image is decoded.
    public var pendingImages: PendingImages?

    /// The scene named `name`, if any.
    public func scene(named name: String) -> SceneDefinition? { scenes.first { $0.name == name } }
}

/// The `[player]` table.
public struct PlayerSettings {
    /// Frames per second of the display link. Default 60.
    public var fps: Int = 60
    /// Fills the screen around and behind the scenes (letterbox bars included). Default black.
    public var background: Color = .black
    /// Start again from the first scene after the last. Default true.
    public var loop: Bool = true
    /// How one scene gives way to the next. Default none.
    public var transition: Transition = .none
    /// Seconds a transition takes. Default 0.5.
    public var transitionDuration: Double = 0.5
    /// The design size of every scene, scaled to the screen keeping its aspect. Default 1920 × 1080.
    public var canvas: Size = Size(width: 1920, height: 1080)
    /// Degrees the picture turns clockwise on the screen (0, 90, 180 or 270), for screens
    /// mounted portrait or upside down. Default 0.
    public var rotation: Int = 0
    /// How the canvas meets the screen. Default contain.
    public var fit: CanvasFit = .contain
    /// Moves the whole picture a little on a slow schedule (burn-in care). Default off.
    public var pixelShift: PixelShift?
    /// When the screen is on; outside these hours it is blanked and nothing is drawn. Default
    /// nil: always on.
    public var screenOn: ScreenSchedule?

    /// The defaults.
    public init() {}
}

/// How the canvas meets a screen of another shape.
public enum CanvasFit: String, CaseIterable, Sendable {
    /// All of it, as large as fits, keeping its aspect: bars of background on two sides.
    case contain
    /// The whole screen, keeping its aspect: the canvas's overflow is cut off on two sides.
    case cover
    /// The whole screen, scaled on each axis on its own (the aspect changes).
    case stretch
}

/// Burn-in care for always-on OLED and plasma screens: every `every` seconds the picture moves
/// one pixel along a path that covers the square of `by` pixels around its place and back.
public struct PixelShift: Equatable, Sendable {
    /// Seconds between moves.
    public var every: Double
    /// How far from its place the picture goes, in pixels, along each axis.
    public var by: Int

    public init(every: Double, by: Int) {
        self.every = every
        self.by = by
    }
}

/// How the player changes scenes.
public enum Transition: String, CaseIterable, Sendable {
    /// Cut.
    case none
    /// Cross-fade.
    case fade
    /// The new scene pushes the old one out to the left.
    case push
}

/// How long a scene plays.
public enum SceneDuration: Equatable, Sendable {
    /// A fixed time.
    case seconds(Double)
    /// Until the scene's progress source reports 100 % (`duration = "progress"`).
    case untilProgressComplete
}

/// One `[[scene]]`: its settings and its layers, ready to be instantiated any number of times.
public struct SceneDefinition {
    /// The unique name (`--scene`, logs, STATUS).
    public var name: String
    /// How long it plays.
    public var duration: SceneDuration
    /// Where live progress comes from, if anywhere.
    public var progressSource: ProgressSourceSpec?
    /// Fill of the scene's canvas; nil leaves the player's background.
    public var background: Color?
    /// The layers, in config order.
    public var layers: [LayerDefinition]
    /// Texts the "message" layer shows from given scene times on, in time order.
    public var messages: [SceneMessage] = []
    /// Where the scene's table starts in the config.
    public var position: SourcePosition
}

/// A text the scene's "message" layer shows from `time` (seconds into the scene) on, as if a
/// MSG line arrived then: the layer's transition plays.
public struct SceneMessage: Equatable, Sendable {
    public var time: Double
    public var text: String
}

/// One `[[scene.layer]]`, validated: what to create and how to set it up.
public struct LayerDefinition {
    /// The `id`, if given (`parent`, `mask` and `message` refer to layers by id).
    public var id: String?
    /// The layer type.
    public var type: LayerType
    /// Property values to set, in config order (already of the property's Swift type).
    public var settings: [(property: ConfigProperty, value: Any)]
    /// `frame`, applied after the properties (so it honours a configured anchorPoint).
    public var frame: Rect?
    /// The id of the superlayer; nil for the scene root.
    public var parent: String?
    /// The id of the layer used as this layer's mask.
    public var mask: String?
    /// The animations added when the scene starts.
    public var animations: [AnimationDefinition]
    /// Whether the config gives the bounds (`bounds` or `frame`); an image layer without them
    /// takes its image's size.
    public var hasExplicitBounds: Bool
}

/// One `[[scene.layer.animation]]`: a configured animation, added (as a copy) to its layer
/// each time the scene starts.
public struct AnimationDefinition {
    /// The key it is added under (its key path, made unique on the layer).
    public var key: String
    /// The configured animation. Its `beginTime` is in the layer's time (the scene time for a
    /// layer without timing of its own).
    public var animation: Animation
}
