/// The largest config or draw-spec file read: far beyond any hand-written playlist, small
/// enough that a wrong path to a huge file or a device cannot exhaust memory.
public let maximumFileBytes = 16 << 20
