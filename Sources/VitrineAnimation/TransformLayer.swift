import VitrineGraphics

/// A layer whose sublayers share its 3D space (CATransformLayer): they are not flattened into
/// its plane but each projected from the space the transform layer places them in, drawn far to
/// near by the depth of their anchor points. It draws nothing of its own (no background, border,
/// contents, mask or group opacity, as in Core Animation).
open class TransformLayer: Layer {}
