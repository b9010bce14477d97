extension TestDevice {
    /// Runs `steps` under `exhaustivity` and then restores the exhaustivity before, as TCA's
    /// `withExhaustivity`: a setup can run unchecked, or check a few kinds, without the test
    /// having to set and reset ``exhaustivity`` around it.
    ///
    /// ```swift
    /// try device.withExhaustivity(.off) {
    ///     try device.send(.appOpen(app: "com.burbn.instagram"))
    ///     try device.advance(minutes: 10)
    /// }
    /// ```
    @discardableResult
    public func withExhaustivity<Result>(_ exhaustivity: Exhaustivity, _ steps: () throws -> Result) rethrows -> Result {
        let before = self.exhaustivity
        self.exhaustivity = exhaustivity
        defer { self.exhaustivity = before }
        return try steps()
    }
}
