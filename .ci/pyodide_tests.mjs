// The tests on CPython 3.14 as Pyodide runs it (compiled to WebAssembly: the Python of
// the static site, `binocle site`), under Node.js.
//
//   node .ci/pyodide_tests.mjs PYODIDE_DIR WHEELS_DIR CHECKOUT [PYTEST ARGUMENTS...]
//
// PYODIDE_DIR holds the npm package `pyodide` unpacked (pyodide.mjs, pyodide.asm.wasm,
// python_stdlib.zip, ...); WHEELS_DIR the pure wheels of the test tools and of binocle's
// dependencies (micropip among them), downloaded from PyPI.  micropip and its
// `packaging` are unpacked into site-packages, then micropip installs the other wheels
// from those local files: nothing is fetched from anywhere.  The checkout is mounted as
// it is (NODEFS) and its src/ put first on sys.path, as an editable install would; the
// tests run from the checkout with these arguments, and the exit status is pytest's.
// The tests that need what Pyodide lacks (processes, threads) skip there, each saying
// why (conftest.py, EMSCRIPTEN_SKIPS).
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const [pyodideDir, wheelsDir, checkout, ...args] = process.argv.slice(2);
if (!checkout) {
  console.error("usage: node pyodide_tests.mjs PYODIDE_DIR WHEELS_DIR CHECKOUT [PYTEST ARGS...]");
  process.exit(2);
}
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const { loadPyodide } = await import(resolve(pyodideDir, "pyodide.mjs"));
// The variables the tests read pass through (CI, the Hypothesis profile, the build).
const env = { HOME: "/home/pyodide" };
for (const name of ["CI", "HYPOTHESIS_PROFILE", "BINOCLE_BUILD"]) {
  if (process.env[name] !== undefined) env[name] = process.env[name];
}
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/", env });
console.log(`Pyodide ${pyodide.version} loaded in ${seconds()} s`);

for (const [dir, mount] of [[checkout, "/checkout"], [wheelsDir, "/wheels"]]) {
  pyodide.FS.mkdirTree(mount);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(dir) }, mount);
}
const wheels = readdirSync(wheelsDir).filter((name) => name.endsWith(".whl"));
const installer = (name) => /^(micropip|packaging)-/.test(name);
for (const name of wheels.filter(installer)) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(resolve(wheelsDir, name))), "wheel");
}
pyodide.globals.set("wheels", pyodide.toPy(wheels.filter((name) => !installer(name))));
pyodide.globals.set("pytest_args", pyodide.toPy(args));
await pyodide.runPythonAsync(`
import micropip
await micropip.install(["emfs:/wheels/" + name for name in wheels], deps=False)
`);
console.log(`${wheels.length} wheels installed by ${seconds()} s`);
const status = await pyodide.runPythonAsync(`
import os, sys
os.chdir("/checkout")
sys.path.insert(0, "/checkout/src")
print(sys.version, sys.platform)
import pytest
int(pytest.main(list(pytest_args)))
`);
console.log(`pytest exited with status ${status} after ${seconds()} s`);
process.exit(status);
