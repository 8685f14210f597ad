# Tool-info module of Cairn for BenchExec (https://github.com/sosy-lab/benchexec).
# Use it as `benchexec_tools.cairn` with this repository's root on PYTHONPATH, e.g.
#   PYTHONPATH=. python3 -m benchexec.test_tool_info benchexec_tools.cairn \
#       --tool-directory target/release
# or copy it to benchexec/tools/cairn.py.

import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task


class Tool(benchexec.tools.template.BaseTool2):
    """
    Cairn generates test suites for C programs: concolic testing with several search
    strategies, a coverage-driven CEGAR model checker that proves goals unreachable, native
    replay of every test. For Test-Comp it reads the coverage property (coverage-branches.prp or
    coverage-error-call.prp) and the data model of the task, uses the cores and the time it is
    given, and writes the suite in the Test-Comp format to output/test-suite.zip (also
    output/test-suite/, with goals.json and summary.json beside it).
    """

    # Seconds kept back from the time limit to write goals.json, summary.json and the zip.
    MARGIN = 5

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("cairn")
        except benchexec.tools.template.ToolNotFoundException:
            # A checkout of the repository, built with cargo build --release.
            return tool_locator.find_executable("cairn", subdir="target/release")

    def name(self):
        return "Cairn"

    def version(self, executable):
        # `cairn --version`: "cairn 0.1.0 (commit ...)", then the toolchain's lines.
        out = self._version_from_tool(executable, line_prefix="cairn ")
        return out.split()[0] if out else ""

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "gen", "--out", "output"]
        if task.property_file:
            cmd += ["--property", task.property_file]
        data_model = get_data_model_from_task(task, {ILP32: "ilp32", LP64: "lp64"})
        if data_model and "--data-model" not in options:
            cmd += ["--data-model", data_model]
        # As many workers as cores; one when only a CPU-time limit is known (the cores of the
        # machine the run lands on are not).
        cores = rlimits.cpu_cores or (1 if rlimits.cputime else None)
        if cores and "--jobs" not in options:
            cmd += ["--jobs", str(cores)]
        # Workers share the CPU-time limit: the wall time they get is the limit over the cores.
        limits = []
        if rlimits.cputime:
            limits.append(rlimits.cputime / (cores or 1))
        if rlimits.walltime:
            limits.append(rlimits.walltime)
        if limits and "--time" not in options:
            limit = min(limits)
            budget = max(1.0, limit - max(self.MARGIN, limit * 0.05))
            cmd += ["--time", f"{budget:.0f}s"]
        if rlimits.memory and "--max-memory" not in options:
            # Cairn bounds its own memory and its runs'; leave room for clang and the zip.
            cmd += ["--max-memory", str(int(rlimits.memory * 0.9))]
        return cmd + list(options) + list(task.input_files_or_identifier)

    def determine_result(self, run):
        if run.exit_code.value == 0:
            return result.RESULT_DONE
        error = next(
            (
                line.split("cairn: error:", 1)[1].strip()
                for line in run.output
                if "cairn: error:" in line
            ),
            "",
        )
        if run.exit_code.value == 4:
            return "ERROR (soundness violation)"
        if run.exit_code.value == 3:
            return "ERROR (no test: " + (error or "unsupported program") + ")"
        if run.exit_code.value == 2:
            return "ERROR (" + (error or "invalid input") + ")"
        return result.RESULT_ERROR

    # cairn: 29 goals (28 branch outcomes, 1 error calls): 28 covered, 1 unreachable
    # (exhaustive 1), 0 unknown; 12 tests in 17.6s -> output
    SUMMARY = re.compile(
        r"cairn: (?P<goals>\d+) goals .*?: (?P<covered>\d+) covered, "
        r"(?P<unreachable>\d+) unreachable.*?, (?P<unknown>\d+) unknown; "
        r"(?P<tests>\d+) tests"
    )

    def get_value_from_output(self, output, identifier):
        """Statistics: goals, covered, unreachable, unknown, tests."""
        for line in reversed(output):
            m = self.SUMMARY.search(line)
            if m and identifier in m.groupdict():
                return m.group(identifier)
        return None
