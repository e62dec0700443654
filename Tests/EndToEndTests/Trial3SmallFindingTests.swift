import Foundation
import Testing

/// The smaller findings of the third trial (its finding 15), each shown fixed end to end.
@Suite struct Trial3SmallFindingTests {
    /// `${env:NAME}` whose value is not UTF-8 is an error at its `$`, as `--var` and a script's
    /// own bytes are (it was read as U+FFFD); the command changes nothing.
    @Test func an_environment_value_that_is_not_utf8_is_an_error_at_its_dollar() throws {
        let error = """
            <command-line>:1:7: error: environment variable 'X' is not valid UTF-8
            var v ${env:X}; save -
                  ^~~~~~~~

            """
        for check in ["", "--check "] {
            #expect(
                try shell(#"X=$(printf 'a\377b') "$CARFAB" \#(check)-e 'var v ${env:X}; save -'"#)
                    == RunResult(stdout: "", stderr: error, status: 1))
        }
        // Going on after it, nothing was set; a valid value is read as it is.
        #expect(
            try shell(#"X=$(printf 'a\377b') Y=é "$CARFAB" --keep-going -e 'var v ${env:X}' -e 'vars; echo ${env:Y}' 2>/dev/null"#)
                == RunResult(stdout: "No variables are set.\né\n", stderr: "", status: 1))
    }
}
