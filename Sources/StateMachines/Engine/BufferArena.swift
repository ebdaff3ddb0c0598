/// The one owner of a compiled definition's memory: every ``FixedBuffer`` and every ``Box`` the
/// engine reads is made here, and all of them go when the arena goes, in its `deinit`. No list of
/// buffers is kept by hand, so none can be forgotten.
///
/// Invariants: a buffer or box made by an arena is read only while the arena lives (the arena is
/// held by `DefinitionStorage`, which every machine and runtime of the definition holds); the arena
/// is filled only while its definition compiles, before the definition is shared, and is not
/// changed after, which is why it may be `Sendable`.
final class BufferArena: @unchecked Sendable {
    /// How to deinitialize and deallocate each buffer made here; run once, in `deinit`.
    private var releases: [() -> Void] = []
    /// The boxes the engine reaches through unmanaged references.
    private var boxes: [AnyObject] = []

    init() {}

    /// How many buffers the arena owns.
    var bufferCount: Int { releases.count }

    /// A buffer holding `elements`, freed with the arena.
    func buffer<Element>(_ elements: [Element]) -> FixedBuffer<Element> {
        let buffer = FixedBuffer(elements)
        releases.append { buffer.release() }
        return buffer
    }

    /// `value` on the heap, kept with the arena and reached without a reference count.
    func box<Value>(_ value: Value) -> Unmanaged<Box<Value>> {
        let box = Box(value)
        boxes.append(box)
        return Unmanaged.passUnretained(box)
    }

    deinit {
        for release in releases { release() }
    }
}

/// A fixed array in memory that a ``BufferArena`` owns: reading an element retains nothing.
///
/// Invariant: `base` holds `count` initialized elements (at least one slot is allocated) from
/// `init` until the owning arena's `deinit`; indices are checked when the definition is compiled,
/// not here.
@usableFromInline
struct FixedBuffer<Element>: @unchecked Sendable {
    @usableFromInline
    let base: UnsafeMutablePointer<Element>
    @usableFromInline
    let count: Int

    /// Only a ``BufferArena`` makes buffers, so that each has an owner that frees it.
    fileprivate init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(from: elements, count: count)
    }

    @inlinable
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
    }

    fileprivate func release() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

/// An immutable value on the heap, so that the hot path can reach it through an unmanaged
/// reference and call a closure in it without retaining the closure's context.
@usableFromInline
final class Box<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
