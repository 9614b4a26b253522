import VitrineAnimation

extension LayerTypeRegistry {
    /// The layer types of the config: layer, image, shape, text, arrow, sector, progress, pie.
    /// An image file key's words: PNG or JPEG, where it is looked for.
    private static let imageFile =
        "The image file (PNG, or JPEG turned upright by its EXIF orientation), relative to the config file"
    private static let imageContents = imageFile + ", drawn in the bounds."

    public static let standard: LayerTypeRegistry = {
        var r = LayerTypeRegistry()
        r.register(
            "layer", Layer.self, summary: "A plain layer (CALayer): background, border, sublayers, an optional image.",
            docs: ["contents": imageContents])
        r.register(
            "image", Layer.self,
            summary: "A layer showing an image file; without bounds or frame it takes the image's size.",
            docs: ["contents": imageFile + "."], required: ["contents"])
        r.register(
            "shape", ShapeLayer.self,
            summary:
                "A filled and stroked path (CAShapeLayer); rect, oval, roundedRect + cornerRadius or arc may stand for path."
        )
        r.register(
            "text", TextLayer.self,
            summary: "A string (CATextLayer); the layer with id \"message\" shows MSG lines of the progress source.",
            valueTypes: ["font": .fontFamily], limits: ["string": .maximumBytes(LayerTypeRegistry.maximumTextBytes)])
        r.register(
            "arrow", ArrowLayer.self, summary: "Seed 000's ring-shaped arrow, redrawn when any property changes.",
            docs: [
                "thickness": "Radial width of the band; the outer radius is half the bounds' width.",
                "startRadians": "Angle of the tail end, radians clockwise on screen from +x.",
                "lengthRadians": "Angle from tail to tip; negative runs counter-clockwise.",
                "headLengthRadians": "Angular length of the head, clipped to the length and given its sign.",
                "fillColor": "Fill of the arrow; \"none\" fills nothing.",
                "strokeColor": "Outline of the arrow; \"none\" strokes nothing.",
                "lineWidth": "Width of the outline.",
                "lineJoin": "Corners of the outline."
            ])
        r.register(
            "gradient", GradientLayer.self,
            summary:
                "A gradient filling the bounds (CAGradientLayer): axial, radial or conic; points in unit coordinates of the bounds.",
            docs: [
                "colors": "The colours of the stops; animated colour by colour.",
                "locations": "Where each colour sits, 0…1 (empty: evenly spaced).",
                "startPoint": "Unit coordinates: where the gradient starts (radial and conic: the centre).",
                "endPoint":
                    "Unit coordinates: where it ends (radial: the ellipse's reach on each axis; conic: the first colour's direction).",
                "gradientType": "Core Animation's `type` (renamed: `type` names the layer type)."
            ])
        r.register(
            "transformLayer", TransformLayer.self,
            summary:
                "Keeps its sublayers in one 3D space (CATransformLayer): each is projected from it, far to near; draws nothing itself."
        )
        r.register(
            "replicator", ReplicatorLayer.self,
            summary:
                "Draws its sublayers instanceCount times (CAReplicatorLayer), each copy moved, delayed and tinted a step further.",
            docs: [
                "instanceCount": "How many copies are drawn, the original included.",
                "instanceTransform":
                    "Applied to copy k − 1 to make copy k, about the layer's centre (the transform syntax).",
                "instanceDelay": "Seconds each copy's time runs behind the previous one's.",
                "instanceColor": "Multiplies the first copy's colours.",
                "instanceRedOffset": "Added to the instance colour's red for each later copy.",
                "instanceGreenOffset": "Added to the instance colour's green for each later copy.",
                "instanceBlueOffset": "Added to the instance colour's blue for each later copy.",
                "instanceAlphaOffset": "Added to the instance colour's alpha for each later copy."
            ],
            limits: ["instanceCount": .range(0...Double(ReplicatorLayer.maximumInstanceCount))])
        r.register(
            "emitter", EmitterLayer.self,
            summary:
                "Particles (CAEmitterLayer) from [[scene.layer.emitterCell]] tables; computed from each particle's birth, so any time renders the same frame.",
            docs: [
                "emitterCells":
                    "One [[scene.layer.emitterCell]] table per kind of particle: birthRate, lifetime, lifetimeRange, velocity, velocityRange, emissionLongitude, emissionRange (radians, clockwise from +x), xAcceleration, yAcceleration, scale, scaleRange, scaleSpeed, spin, spinRange, alphaSpeed, color, redRange, greenRange, blueRange, alphaRange, contents (an image; without one a 10-unit square of the colour).",
                "emitterPosition": "Centre of the emission shape, in the layer's coordinates.",
                "emitterSize": "Size of the emission shape (circle: its diameter is the width).",
                "emitterShape": "Where particles are born: at the position, along a line, in a rectangle or a circle.",
                "renderMode": "unordered: particles over one another; additive: added to what is below (a glow).",
                "birthRate": "Multiplies every cell's birth rate; 0 stops emission.",
                "seed": "Seeds the particles' randomness (each seed gives its own, repeatable, pattern).",
                "emitterTime": "Seconds since the emitter started, run by its own clock (timeOffset scrubs it)."
            ],
            limits: ["birthRate": .range(0...10)],
            configKeys: ["emitterCells": "emitterCell"])
        r.register(
            "sector", SectorLayer.self,
            summary: "Seed 004's growing pie sector: progress 0 → 1 sweeps a filled disc clockwise.",
            docs: [
                "progress": "How much of the circle is covered, 0…1.",
                "startAngle": "Where the sector starts, radians clockwise from +x.",
                "fillColor": "The sector's fill."
            ])
        r.register(
            "progress", ProgressLayer.self,
            summary:
                "Seed 002's wavy progress bar with its percentage label; driven live by setProgress / PROGRESS lines.",
            docs: [
                "progress": "Progress, 0…1; the bar sags most at 50 %.",
                "strokeEnd": "Where the done and remaining colours meet, as a fraction of the length.",
                "maxOffset": "The sag at 50 % progress.",
                "origin": "Where the line starts, in the layer's coordinates.",
                "maxLength": "The horizontal length of the line.",
                "lineWidth": "Width of both parts (round caps).",
                "trackColor": "Colour of the remaining part.",
                "strokeColor": "Colour of the done part.",
                "textRect": "The percentage label's rectangle at progress 0; it moves with the tip."
            ])
        r.register(
            "pie", PieChartLayer.self,
            summary: "Seed 001's pie: slices grow from the top, each starting where the previous one currently ends.",
            docs: [
                "values": "The shares, one slice each.",
                "colors": "The slice colours, used in turn.",
                "labelFontSize": "Size of the percentage labels.",
                "labelColor": "Colour of the percentage labels.",
                "growthDuration": "Seconds each slice takes to grow (easeInEaseOut)."
            ], limits: ["values": .maximumCount(LayerTypeRegistry.maximumPieValues)])
        return r
    }()

    /// The longest text a text layer takes: far more than a screen shows, small enough that
    /// laying it out stays well under a frame.
    public static let maximumTextBytes = 65_536
    /// The most slices a pie takes: each is a layer with a label, rebuilt every frame it grows.
    public static let maximumPieValues = 1_000

    /// What the properties of the library's Layer, ShapeLayer and TextLayer do.
    static let builtInDocs: [String: String] = [
        // Layer
        "bounds": "The layer's own coordinate space: origin and size.",
        "position": "Where the anchor point sits in the parent's coordinates.",
        "zPosition": "Stacking order among siblings: higher draws on top.",
        "anchorPoint": "The point of the bounds (unit coordinates) that position places and transform turns about.",
        "transform":
            "Applied about the anchor point: [a, b, c, d, tx, ty], 16 numbers (CATransform3D's m11 … m44) or { rotation, rotationX, rotationY, scale, translation, translationZ, shear, perspective = D } (scale first, then rotation about x, y, z, then translation, then perspective: m34 = −1/D); animatable by parts (transform.rotation.y, transform.scale, transform.translation.z …).",
        "sublayerTransform":
            "Applied to the sublayers about the anchor point (the transform syntax); typically { perspective = D } so that turned sublayers are seen in perspective.",
        "anchorPointZ": "The anchor point's z: what the transform turns about, off the plane.",
        "isDoubleSided": "Whether the layer shows when its back faces the eye.",
        "opacity": "Opacity of the layer and its sublayers, 0…1.",
        "isHidden": "Whether the layer and its sublayers are not drawn.",
        "backgroundColor": "Fill of the bounds, rounded by cornerRadius.",
        "cornerRadius": "Radius of the background, border and masksToBounds clip.",
        "borderWidth": "Width of the border drawn inside the bounds.",
        "borderColor": "Colour of the border.",
        "masksToBounds": "Clip sublayers and contents to the bounds and corner radius.",
        "contents": imageContents,
        "contentsGravity": "How contents is placed in the bounds.",
        "contentsRect":
            "The part of contents shown, in unit coordinates of the image (a sprite sheet's cell; step through cells with discrete keyframes).",
        "contentsCenter":
            "The part of the image that stretches, in its unit coordinates: corners keep their size, edges stretch one way (nine-slice).",
        "shadowColor": "Colour of the shadow cast by the layer's content (or shadowPath).",
        "shadowOpacity": "Opacity of the shadow, 0…1; 0 (the default) casts none.",
        "shadowOffset": "How far the shadow is moved, in the layer's coordinates.",
        "shadowRadius": "Blur radius: a Gaussian of standard deviation radius / 2.",
        "shadowPath": "The shape casting the shadow instead of the content (as path; cheaper).",
        "transition":
            "Played when the scene changes contents, string or isHidden (e.g. a MSG line): { type = fade | push | moveIn | reveal, subtype = fromLeft | fromRight | fromTop | fromBottom, duration }; the sliding kinds are clipped to the bounds.",
        "beginTime": "When the layer's time starts, in its parent's time (seconds).",
        "speed": "Rate of the layer's time relative to its parent's; 0 pauses.",
        "timeOffset": "Offset added to the layer's time (scrubs a paused layer).",
        // ShapeLayer
        "path":
            "The shape, in the layer's coordinates: SVG path data, or a table { rect | oval | roundedRect (+ cornerRadius) | arc = … } as in vitrine draw.",
        "fillColor": "The fill; \"none\" fills nothing.",
        "fillGradient":
            "A gradient fill { type = axial | radial | conic, colors, locations, start, end } in the layer's coordinates, instead of fillColor.",
        "strokeGradient": "A gradient stroke (as fillGradient), instead of strokeColor.",
        "fillRule": "Which regions are inside when filling.",
        "strokeColor": "The stroke; \"none\" strokes nothing.",
        "lineWidth": "Width of the stroke.",
        "lineCap": "Shape of open ends.",
        "lineJoin": "Shape of corners.",
        "miterLimit": "Miter joins longer than miterLimit × lineWidth become bevels.",
        "lineDashPattern": "Alternating dash and gap lengths; empty draws a solid line.",
        "lineDashPhase": "How far into the dash pattern the stroke starts.",
        "strokeStart": "Where stroking starts, as a fraction of the path's length.",
        "strokeEnd": "Where stroking ends, as a fraction of the path's length.",
        // TextLayer
        "string": "The text.",
        "font": "The font family, matched with fontconfig.",
        "fontSize": "The font size in pixels.",
        "foregroundColor": "The text colour.",
        "alignmentMode": "How lines are aligned in the bounds.",
        "isWrapped": "Whether text wraps to the bounds' width: between words, CJK text between characters.",
        "truncationMode":
            "How text that does not fit the bounds is shortened with an ellipsis (wrapped text: after the last line that fits)."
    ]
}
