import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import Clarity

/// Layers 3–5 and the contact's name on every layer's shield (seed 000 task 4g,
/// `ProsocialFrictionDescriptions`), with short thresholds, in process.
@Suite struct FrictionLayerTextsTests {
    private let instagram = BundleID.instagram

    @Test func everyLayerHasItsTextsAndAlwaysTheContinueButton() throws {
        let device = try TestDevice.clarity(thresholdsMinutes: [1, 2, 3, 4, 5])
        try device.setUpPeople(["Mom"])
        try device.send(
            .appOpen(app: instagram), effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)])
        try device.advance(
            minutes: 1,
            effects: awarenessNudge(body: "You've been on Instagram for 1 minute. Mom would love to hear from you."))
        let expected: [(title: String, subtitle: String)] = [
            ("Text Mom instead", "A real connection beats any feed"),
            ("What are you looking for?", "Or call someone instead of scrolling"),
            ("Call Mom — for real", "Have a real conversation"),
            (
                "0 texts today. 58 min scrolling.",
                "Type 'I choose to keep scrolling' to continue. Or connect with someone."
            ),
        ]
        for (index, texts) in expected.enumerated() {
            let layer = index + 2
            // Layers 2 and 4 are the prosocial ones (prosocial challenges are on, Mom is set).
            let store = layer == 2 || layer == 4 ? "prosocialFriction" : "friction"
            try device.advance(
                minutes: 1,
                effects: frictionLayer(
                    layer, store: store, app: instagram,
                    shield: frictionShield(title: texts.title, subtitle: texts.subtitle)))
            #expect(try device.shields().stores[store]?.applications == [instagram], "layer \(layer)")
            try device.send(
                .shieldPress(app: instagram, button: .secondary),
                effects: [
                    .shieldClear(store: store),
                    .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                    .shieldAction(app: instagram, button: .secondary, response: .none),
                ])
            #expect(try device.state().shieldShown == false, "layer \(layer)")
        }
        #expect(try device.appState()["products"]?.arrayValue?.map { $0["displayPrice"] } == ["$4.99", "$39.99"])
    }
}
