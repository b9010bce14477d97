extension Array {
    /// Appends `filler` until `index` is an index of the array: for tables indexed by a small
    /// number (a descriptor, a name's length) that grow as larger ones come.
    mutating func grow(toHold index: Int, with filler: Element) {
        guard index >= count else { return }
        append(contentsOf: repeatElement(filler, count: index + 1 - count))
    }
}
