#!/usr/bin/env python3
"""README stays true to the binary: every command `--help` lists is in README.md and every option in it or in the
command reference (src/cli/README.md); README.md fits 400 lines of at most 120 columns but for literal output; and the
C++ and GLSL sources keep to the 120 columns of .clang-format."""
import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
COMMANDS = ["tune", "list", "bench", "devices", "peak", "compare", "merge", "lookup", "export", "report"]


def help_text(*command):
    p = subprocess.run([BIN, *command, "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


class Docs(unittest.TestCase):
    def test_every_command_and_option_in_help_is_in_the_readme(self):
        # The top-level README names every command; the command reference beside the CLI code (or the README) names
        # every option.
        with open(os.path.join(ROOT, "README.md")) as f:
            top_readme = f.read()
        with open(os.path.join(ROOT, "src", "cli", "README.md")) as f:
            readme = top_readme + f.read()
        top = help_text()
        for command in COMMANDS:
            self.assertRegex(top, rf"\n\s+{command}\b", f"{command} missing from gemmtune --help")
            self.assertIn(f"gemmtune {command}" if command != "tune" else "gemmtune [tune]", top_readme, command)
        missing = []
        for command in [[]] + [[c] for c in COMMANDS]:
            options = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", help_text(*command)))
            options -= {"--help", "--version"}
            for option in sorted(options):
                if f"`{option}" not in readme and f"{option} " not in readme and f"{option}`" not in readme:
                    missing.append(f"{' '.join(command) or 'gemmtune'} {option}")
        self.assertEqual(missing, [], "options in --help that README.md does not mention")


class FirstScreen(unittest.TestCase):
    def test_the_first_screen_gets_a_user_to_a_table_then_links_that_resolve(self):
        with open(os.path.join(ROOT, "README.md")) as f:
            readme = f.read()
        first = readme.splitlines()[:30]  # one screen
        self.assertTrue(any(l.startswith("scripts/run --shape 1024x768x3072") for l in first), "the first command")
        self.assertTrue(any("Contents:" in l for l in first), "the contents links")
        # Every in-page link names a heading, as GitHub derives their anchors.
        def anchor(heading):
            text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
            return text.replace(" ", "-")
        anchors = {anchor(h) for h in re.findall(r"^#+ (.+)$", readme, re.M)}
        links = re.findall(r"\]\(#([^)]+)\)", readme)
        self.assertGreater(len(links), 8)
        self.assertEqual([l for l in links if l not in anchors], [], "links to no heading")


class ReadmeSize(unittest.TestCase):
    def test_the_readme_is_a_manual_of_at_most_400_lines_and_120_columns(self):
        # The command reference lives beside the CLI code (src/cli/README.md); a transcript inside a code block is
        # what the tool printed and keeps its lines.
        with open(os.path.join(ROOT, "README.md")) as f:
            lines = f.read().splitlines()
        self.assertLessEqual(len(lines), 400)
        in_code, wide = False, []
        for number, line in enumerate(lines, 1):
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and len(line) > 120:
                wide.append(number)
        self.assertEqual(wide, [], "README.md lines over 120 columns outside code blocks")

    def test_reference_pages_keep_their_prose_within_120_columns(self):
        # Every README.md beside what it describes; a code block is literal output and a table row of measured
        # figures cannot wrap, so both keep their lines.
        wide = []
        for folder in ("configs", "kernels", "results", "src/cli", "tests"):
            with open(os.path.join(ROOT, folder, "README.md")) as f:
                in_code = False
                for number, line in enumerate(f.read().splitlines(), 1):
                    if line.startswith("```"):
                        in_code = not in_code
                    elif not in_code and not line.startswith("|") and len(line) > 120:
                        wide.append(f"{folder}/README.md:{number}")
        self.assertEqual(wide, [], "reference prose over 120 columns")


class FamilyList(unittest.TestCase):
    def test_the_binary_sweeps_the_families_kernels_cmakelists_lists_in_its_order(self):
        # kernels/CMakeLists.txt is the one list of families (gemmtune_family, gemmtune_add_kernel ... FAMILY); the
        # binary's registry is generated from it, so --help's variant list must be that list, then the baseline.
        with open(os.path.join(ROOT, "kernels", "CMakeLists.txt")) as f:
            text = f.read()
        listed = []
        for line in text.splitlines():
            line = line.split("#", 1)[0]
            m = re.match(r"\s*gemmtune_family\((\w+)\)", line) or re.match(r"\s*gemmtune_add_kernel\((\w+)\s.*\bFAMILY\b", line)
            if m:
                listed.append(m.group(1))
        self.assertGreaterEqual(len(listed), 7)
        m = re.search(r"--variants TEXT[^\n]*?comma-separated: ([^(]*) \(default", help_text().replace("\n", " "))
        self.assertIsNotNone(m, "--variants help text")
        names = [n.strip() for n in re.split(r",| and ", re.sub(r"\s+", " ", m.group(1))) if n.strip()]
        self.assertEqual(names, listed + ["naive"])
        for name in listed:  # each family is one description file (splitk shares tiled's)
            self.assertTrue(name == "splitk" or os.path.exists(os.path.join(ROOT, "src", "kernels", name + ".cpp")), name)


    def test_no_source_outside_src_kernels_names_a_family(self):
        # A family is known by its description alone: elsewhere in src/ no string holds a family's name as a word
        # and no code calls a family's accessor (comments may name one).
        with open(os.path.join(ROOT, "kernels", "CMakeLists.txt")) as f:
            families = re.findall(r"^\s*gemmtune_family\((\w+)\)|^\s*gemmtune_add_kernel\((\w+)\s.*\bFAMILY\b", f.read(), re.M)
        names = sorted({a or b for a, b in families} | {"naive"})
        word = re.compile(r"\b(%s)\b" % "|".join(names))
        accessor = re.compile(r"\b(%s)_family\s*\(" % "|".join(names))
        literal = re.compile(r'"(?:[^"\\\n]|\\.)*"')
        found = []
        for folder, _, files in os.walk(os.path.join(ROOT, "src")):
            if os.path.relpath(folder, os.path.join(ROOT, "src")).split(os.sep)[0] == "kernels":
                continue
            for name in files:
                path = os.path.join(folder, name)
                with open(path) as f:
                    for number, line in enumerate(f, 1):
                        code = re.sub(r"//.*", "", literal.sub(lambda m: m.group(0).replace("/", " "), line))
                        strings = literal.findall(code)
                        if accessor.search(code) or any(word.search(s) for s in strings):
                            found.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
        self.assertEqual(found, [], "a family named outside src/kernels/:\n" + "\n".join(found))


class FunctionLength(unittest.TestCase):
    def test_no_function_in_src_is_over_80_lines(self):
        # A function starts at a line in column 0 that ends in ") {" (or "const {"); it ends where its braces close.
        long = []
        for folder, _, files in os.walk(os.path.join(ROOT, "src")):
            for name in files:
                if not name.endswith(".cpp"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    lines = f.read().split("\n")
                i = 0
                while i < len(lines):
                    line = lines[i]
                    if re.match(r"^[A-Za-z].*\)\s*(const\s*)?(noexcept\s*)?\{\s*$", line) and not re.match(
                            r"^(namespace|struct|class|enum)\b", line):
                        depth, j = 0, i
                        while j < len(lines):
                            depth += lines[j].count("{") - lines[j].count("}")
                            if depth == 0:
                                break
                            j += 1
                        if j - i > 80:
                            long.append(f"{os.path.relpath(path, ROOT)}:{i + 1}: {j - i} lines")
                        i = j
                    i += 1
        self.assertEqual(long, [], "functions over 80 lines (split them into named steps)")


class SourceWidth(unittest.TestCase):
    def test_cpp_and_glsl_lines_are_at_most_120_characters(self):
        wide = []
        for top in ("src", "tests", "kernels"):
            for folder, _, files in os.walk(os.path.join(ROOT, top)):
                for name in files:
                    if not name.endswith((".cpp", ".hpp", ".comp", ".glsl", ".in")):
                        continue
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        for number, line in enumerate(f, 1):
                            if len(line.rstrip("\n")) > 120:
                                wide.append(f"{os.path.relpath(path, ROOT)}:{number}: {len(line.rstrip())} characters")
        self.assertEqual(wide, [], "lines over 120 characters (clang-format -i wraps the C++ ones)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
