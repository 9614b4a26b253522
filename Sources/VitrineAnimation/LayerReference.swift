/// Stands for one layer where a reference must not keep it alive: a sublayer's superlayer, a
/// mask's owner, a presentation copy's model layer, the renderer's caches. The layer and
/// everyone pointing at it hold this object; the layer empties it as it goes, so `layer`
/// reads nil from then on, as a weak reference would.
///
/// A weak reference would give every layer a side table, and every retain and release of a
/// layer that has one takes the runtime's slow path: the engine copies, links and compares
/// thousands of layers a frame. This object is never referenced weakly, nor are the layers.
///
/// Not thread-safe, like the layers: a layer goes on the thread that holds its tree.
final class LayerReference {
    /// The layer, set by its initialiser and emptied first thing by its `deinit`.
    unowned(unsafe) var layer: Layer?
}
