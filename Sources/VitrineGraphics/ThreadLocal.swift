import Glibc

/// One instance of `Value` per thread, made on first use and released when its thread ends
/// (a pthread key, cheap enough to read on every call).
package final class ThreadLocal<Value: AnyObject> {
    private var key = pthread_key_t()
    private let make: () -> Value

    /// Thread-local values made by `make`.
    package init(_ make: @escaping () -> Value) {
        self.make = make
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
    }

    /// The calling thread's value.
    package var value: Value {
        if let p = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(p).takeUnretainedValue() }
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(value).toOpaque())
        return value
    }
}
