/// A key of a config table that is not a layer property: its value type, default and meaning.
/// The loader accepts exactly these keys and the reference prints them, so both read one list.
public struct ConfigKey {
    /// The key.
    public let key: String
    /// What it holds, as the reference shows it.
    public let type: String
    /// The default as written in the config ("—" when required or without one).
    public let defaultValue: String
    /// One line saying what it does.
    public let doc: String

    init(_ key: String, _ type: String, _ defaultValue: String, _ doc: String) {
        self.key = key; self.type = type; self.defaultValue = defaultValue; self.doc = doc
    }
}

/// The keys of each config table.
public enum ConfigKeys {
    /// `[player]`.
    public static let player: [ConfigKey] = [
        ConfigKey("fps", "integer", "60", "Frames per second of the display link."),
        ConfigKey("background", "colour", "\"#000000\"", "Fills the screen behind the scenes and the letterbox bars."),
        ConfigKey("loop", "bool", "true", "Start again from the first scene after the last."),
        ConfigKey("transition", "none | fade | push", "none", "How one scene gives way to the next."),
        ConfigKey("transitionDuration", "number", "0.5", "Seconds a transition takes."),
        ConfigKey(
            "canvas", "[width, height]", "[1920, 1080]", "The design size, scaled to the screen keeping its aspect."),
        ConfigKey(
            "rotation", "0 | 90 | 180 | 270", "0",
            "Degrees the picture turns clockwise on the screen (90: the canvas's top edge on the screen's right, as `xrandr --rotate right`)."
        ),
        ConfigKey(
            "fit", "contain | cover | stretch", "contain",
            "How the canvas meets a screen of another shape: all of it with bars, the whole screen cropped, or stretched."
        ),
        ConfigKey(
            "pixelShift", "{ every = SECONDS, by = PIXELS }", "off",
            "Burn-in care: every `every` seconds (at least 1) the picture moves a pixel, within `by` pixels (1 to 16) of its place."
        ),
        ConfigKey(
            "screenOn", "[[DAYS, \"HH:MM\", \"HH:MM\"], …]", "always",
            "Local hours the screen is on (DAYS: Mon-Fri, Sat, Mon,Wed,Fri, daily; an end before the start runs past midnight); outside them it is blanked (DPMS on X11) and no frame is drawn."
        )
    ]

    /// `[[scene]]`.
    public static let scene: [ConfigKey] = [
        ConfigKey("name", "string", "—", "Unique; used by --scene, logs and STATUS."),
        ConfigKey(
            "duration", "number | \"progress\"", "—", "Seconds before the next scene, or until progress reaches 100 %."),
        ConfigKey(
            "progressSource", "\"fifo:PATH\" | \"file:PATH\"", "none", "Where PROGRESS / MSG / QUIT lines come from."),
        ConfigKey("background", "colour", "none", "Fill of the scene's canvas (else the player's background shows)."),
        ConfigKey(
            "messages", "[[seconds, \"text\"], …]", "none",
            "Texts the \"message\" layer shows from those scene times on, as MSG lines would (its transition plays)."),
        ConfigKey("layer", "[[scene.layer]]", "—", "The layers, drawn in order.")
    ]

    /// Keys every `[[scene.layer]]` takes besides its type's properties.
    public static let layer: [ConfigKey] = [
        ConfigKey("id", "string", "none", "Unique in the scene; parent, mask and the \"message\" text refer to it."),
        ConfigKey("type", "layer type", "—", "One of the registered types (see below)."),
        ConfigKey("parent", "layer id", "none", "The superlayer (default: the scene's root, canvas-sized at (0, 0))."),
        ConfigKey(
            "mask", "layer id", "none",
            "A layer of this scene used as this layer's mask (it is then not placed in the tree)."),
        ConfigKey(
            "frame", "[x, y, width, height]", "none", "Sets bounds size and position (instead of bounds and position)."),
        ConfigKey("animation", "[[scene.layer.animation]]", "none", "Animations added when the scene starts.")
    ]

    /// Shape keys standing for `path` on layers with a path (one of them).
    public static let shape: [ConfigKey] = [
        ConfigKey("rect", "[x, y, width, height]", "none", "A rectangle path."),
        ConfigKey("oval", "[x, y, width, height]", "none", "An ellipse inscribed in the rectangle."),
        ConfigKey(
            "roundedRect", "[x, y, width, height]", "none", "A rounded rectangle, with cornerRadius as its radius."),
        ConfigKey(
            "arc", "[cx, cy, r, start, end, clockwise]", "none",
            "An arc, angles in radians, clockwise on screen when true.")
    ]

    /// `[[scene.layer.animation]]`, every type.
    public static let animationTiming: [ConfigKey] = [
        ConfigKey("type", "basic | keyframe | spring | group", "basic", "keyframe when values or path is given."),
        ConfigKey("duration", "number", "0.25", "Seconds of one iteration (a spring: until it settles)."),
        ConfigKey("beginTime", "number", "0", "Seconds after the scene starts (in the layer's time)."),
        ConfigKey(
            "timingFunction", "name | [c1x, c1y, c2x, c2y]", "linear",
            "linear, easeIn, easeOut, easeInEaseOut, default or control points."),
        ConfigKey("autoreverses", "bool", "false", "Play each iteration forward then backward."),
        ConfigKey("repeatCount", "number | \"infinity\"", "0", "Iterations (fractional allowed); 0 means one."),
        ConfigKey("repeatDuration", "number", "0", "Seconds to repeat for, instead of a count."),
        ConfigKey("speed", "number", "1", "Rate relative to the layer's time; 0 pauses."),
        ConfigKey("timeOffset", "number", "0", "Offset into the animation's time."),
        ConfigKey(
            "fillMode", "removed | forwards | backwards | both", "removed", "What shows outside the active interval."),
        ConfigKey("removedOnCompletion", "bool", "true", "Remove the animation when it ends.")
    ]

    /// `[[scene.layer.animation]]` of a property: basic, keyframe and spring.
    public static let animationProperty: [ConfigKey] = [
        ConfigKey(
            "keyPath", "key path", "—",
            "The animated property: a key of the layer type, or a sub-key (position.x, transform.rotation.z, bounds.size.width …)."
        ),
        ConfigKey("additive", "bool", "false", "Add the value to the property's underlying value."),
        ConfigKey("cumulative", "bool", "false", "Each repeat continues from the end of the previous one.")
    ]

    /// `type = "basic"` and `"spring"`: the values of the key path's type.
    public static let animationBasic: [ConfigKey] = [
        ConfigKey("from", "key path's type", "none", "Start value (without it: the underlying value)."),
        ConfigKey("to", "key path's type", "none", "End value (without it: the underlying value, i.e. the model)."),
        ConfigKey("by", "key path's type", "none", "Change relative to from or to.")
    ]

    /// `type = "keyframe"`.
    public static let animationKeyframe: [ConfigKey] = [
        ConfigKey("values", "[key path's type, …]", "—", "The keyframe values."),
        ConfigKey("keyTimes", "[number, …]", "even", "Time (0…1) of each value; one more than values for discrete."),
        ConfigKey(
            "calculationMode", "linear | discrete | paced | cubic | cubicPaced", "linear",
            "How the values are connected."),
        ConfigKey("timingFunctions", "[timing function, …]", "linear", "One per segment (values − 1)."),
        ConfigKey("path", "path", "none", "A motion path for a point key path (position), instead of values."),
        ConfigKey("rotationMode", "auto | autoReverse", "none", "Turn the layer along the motion path.")
    ]

    /// `type = "spring"`.
    public static let animationSpring: [ConfigKey] = [
        ConfigKey("mass", "number", "1", "The mass on the spring (> 0)."),
        ConfigKey("stiffness", "number", "100", "The spring constant (> 0)."),
        ConfigKey("damping", "number", "10", "Friction (≥ 0)."),
        ConfigKey("initialVelocity", "number", "0", "Speed at release, in distances per second.")
    ]

    /// `type = "group"`.
    public static let animationGroup: [ConfigKey] = [
        ConfigKey("animations", "[[…animation.animations]]", "—", "The grouped animations, timed in the group's time.")
    ]

    static func names(_ lists: [ConfigKey]...) -> Set<String> { Set(lists.joined().map(\.key)) }
}
