import Glibc
import VitrineGraphics

/// Batches model changes and sets how implicit animations run (CATransaction).
///
/// Transactions nest; a setting read inside a transaction is the innermost one set, else the
/// default. When a layer changes outside any explicit transaction an implicit transaction
/// opens; the engine commits it once per frame. State is per thread (use layers from one thread).
public enum Transaction {
    /// The implicit animation duration when no transaction sets one.
    public static let defaultAnimationDuration = 0.25

    /// Opens an explicit transaction.
    public static func begin() {
        TransactionStack.current.states.append(TransactionState(isImplicit: false))
    }

    /// Closes the innermost explicit transaction. Its completion block runs now if none of the
    /// animations added since it was set remain, otherwise when the last of them ends.
    /// An unbalanced commit is ignored.
    public static func commit() {
        let stack = TransactionStack.current
        guard let top = stack.states.last, !top.isImplicit else { return }
        stack.states.removeLast()
        top.completion?.commit()
    }

    /// Commits the implicit transaction, if one is open and no explicit one is (the engine
    /// calls this at the start of each frame).
    public static func flush() {
        let stack = TransactionStack.current
        guard stack.states.count == 1, let only = stack.states.first, only.isImplicit else { return }
        stack.states.removeAll()
        only.completion?.commit()
    }

    /// The duration of implicit animations: the innermost setting, else 0.25 s.
    public static func animationDuration() -> Double {
        TransactionStack.current.states.reversed().lazy.compactMap(\.duration).first ?? defaultAnimationDuration
    }

    /// The duration set by an open transaction, if any (nil: none was set).
    static func explicitAnimationDuration() -> Double? {
        TransactionStack.current.states.reversed().lazy.compactMap(\.duration).first
    }

    /// Sets the duration of implicit animations created in the current transaction, and of
    /// animations added to layers in it that have no duration of their own.
    public static func setAnimationDuration(_ duration: Double) {
        TransactionStack.current.top.duration = duration
    }

    /// The pacing of implicit animations: the innermost setting, else nil (the layer's default,
    /// `TimingFunction.default`).
    public static func animationTimingFunction() -> TimingFunction? {
        TransactionStack.current.states.reversed().lazy.compactMap(\.timingFunction).first
    }

    /// Sets the pacing of implicit animations created in the current transaction, and of
    /// animations added to layers in it that have no timing function of their own.
    public static func setAnimationTimingFunction(_ function: TimingFunction?) {
        TransactionStack.current.top.timingFunction = function
    }

    /// Whether property changes skip their actions: the innermost setting, else false.
    public static func disableActions() -> Bool {
        TransactionStack.current.states.reversed().lazy.compactMap(\.disableActions).first ?? false
    }

    /// Disables (or re-enables) actions for changes in the current transaction.
    public static func setDisableActions(_ disable: Bool) {
        TransactionStack.current.top.disableActions = disable
    }

    /// The completion block of the current transaction, if set.
    public static func completionBlock() -> (() -> Void)? {
        TransactionStack.current.states.last?.completion?.block
    }

    /// Sets a block that runs once every animation added to layers after this call, within
    /// this transaction (nested ones included), has ended or been removed.
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        let top = TransactionStack.current.top
        if let existing = top.completion {
            existing.block = block
        } else {
            top.completion = TransactionCompletion(block: block)
        }
    }

    /// Called when a layer's model changes: makes sure a transaction is open.
    static func noteModelChange() { _ = TransactionStack.current.top }

    /// Registers an animation just added to a layer with every open transaction that waits
    /// for its animations.
    static func register(_ animation: Animation) {
        let stack = TransactionStack.current
        _ = stack.top
        for state in stack.states {
            guard let group = state.completion, !group.hasRun else { continue }
            group.pending += 1
            animation.runtime.completionGroups.append(group)
        }
    }
}

/// One open transaction's settings.
final class TransactionState {
    let isImplicit: Bool
    var duration: Double?
    var timingFunction: TimingFunction?
    var disableActions: Bool?
    var completion: TransactionCompletion?

    init(isImplicit: Bool) { self.isImplicit = isImplicit }
}

/// A completion block waiting for the animations of its transaction.
final class TransactionCompletion {
    var block: (() -> Void)?
    var pending = 0
    private var isCommitted = false
    private(set) var hasRun = false

    init(block: (() -> Void)?) { self.block = block }

    func commit() {
        isCommitted = true
        runIfDone()
    }

    func animationEnded() {
        pending -= 1
        runIfDone()
    }

    private func runIfDone() {
        guard isCommitted, pending <= 0, !hasRun else { return }
        hasRun = true
        let b = block
        block = nil
        b?()
    }
}

/// The stack of open transactions of one thread.
final class TransactionStack {
    var states: [TransactionState] = []

    /// The innermost open transaction, opening the implicit one when none is.
    var top: TransactionState {
        if let last = states.last { return last }
        let implicit = TransactionState(isImplicit: true)
        states.append(implicit)
        return implicit
    }

    private static let perThread = ThreadLocal { TransactionStack() }

    /// This thread's stack.
    static var current: TransactionStack { perThread.value }
}
