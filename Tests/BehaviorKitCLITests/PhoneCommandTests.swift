import Testing

struct PhoneCommandTests {
    @Test func formatsTheArticleNumber() throws {
        let result = try CLIRunner.run(["phone", "79634480209"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "+7 (963) 448 02-09\n")
    }

    @Test func formatsEachLineOfStandardInputAndFailsAtTheEnd() throws {
        let result = try CLIRunner.run(["phone"], input: "79634480209\n123\n89161234567\n")
        #expect(result.exitCode == 1)
        #expect(
            result.standardOutput == """
                +7 (963) 448 02-09
                error: length: expected 11 characters, got 3 in "123"
                +8 (916) 123 45-67

                """)
    }

    @Test func takesAnotherMask() throws {
        let result = try CLIRunner.run(["phone", "--mask", "XXX-XXX-XX-XX", "9634480209"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "963-448-02-09\n")
    }

    @Test func refusesAMaskWithoutPlaceholders() throws {
        let result = try CLIRunner.run(["phone", "--mask", "nothing", "1"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains(#"the mask "nothing" has no X"#))
    }
}

struct PhoneCommandInputTests {
    @Test func acceptsFormattedAndFullWidthNumbers() throws {
        let result = try CLIRunner.run(["phone", "+7 (963) 448 02-09", "７９６３４４８０２０９"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "+7 (963) 448 02-09\n+7 (963) 448 02-09\n")
    }

    @Test func formatsAsYouType() throws {
        let result = try CLIRunner.run(["phone", "--as-you-type", "79634"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "+7\n+7 (9\n+7 (96\n+7 (963\n+7 (963) 4\n")
    }
}
