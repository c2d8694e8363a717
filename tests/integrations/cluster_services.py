"""Throwaway single-node clusters for the datatrove executor tests: Slurm (Debian's ``slurm-wlm`` and
``munge``: munged, slurmctld, slurmd, all in a temporary directory, on 127.0.0.1, free ports) and a
local Ray.  Each start raises :class:`Unavailable` with the reason when its programs are missing, and
``stop()`` ends every process it started (tests call it from a fixture finalizer).

A test helper, not shipped: imported by name from ``tests/integrations``.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

# Seconds the daemons get to come up (slurmd registers with slurmctld in ~1 s here), and a job to end.
START_TIMEOUT = 60.0
# Seconds a finalizer waits for a daemon to exit on SIGTERM before SIGKILL.
STOP_TIMEOUT = 15.0
# The node's memory as declared to Slurm (MB): small, so the check against the machine's real memory
# always passes; jobs ask for less (``--mem-per-cpu`` is set by the test).
NODE_MEMORY_MB = 2000
SLURM_PROGRAMS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel")


class Unavailable(RuntimeError):
    """The cluster cannot start here (what is missing says why)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _program(name: str) -> str:
    for d in (None, "/usr/sbin", "/sbin"):
        found = shutil.which(name, path=d)
        if found:
            return found
    raise Unavailable(f"{name} is not installed (apt-get install slurm-wlm munge; .ci/run installs them)")


class SlurmCluster:
    """munged + slurmctld + slurmd for one node with ``cpus`` CPUs; ``env`` is the environment the
    Slurm client commands (sbatch, squeue) need (``SLURM_CONF``)."""

    def __init__(self, directory: Path, cpus: int = 2):
        if os.geteuid() != 0:
            raise Unavailable("a test Slurm runs its daemons as root (slurmd starts jobs as the submitting user)")
        self.programs = {name: _program(name) for name in SLURM_PROGRAMS}
        self.dir = Path(directory)
        self.dir.chmod(0o755)
        self.procs: list[subprocess.Popen] = []
        self.node = "mcenode"
        self.conf = self.dir / "slurm.conf"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        try:
            self._start_munge()
            self._write_conf(cpus)
            self._start_slurm()
        except BaseException:
            self.stop()
            raise

    def _start_munge(self) -> None:
        mdir = self.dir / "munge"
        mdir.mkdir(mode=0o700)
        key = mdir / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.munge_socket = mdir / "munge.socket"
        self.procs.append(subprocess.Popen(
            [self.programs["munged"], "--foreground", "--force", f"--key-file={key}", f"--socket={self.munge_socket}",
             f"--pid-file={mdir / 'munged.pid'}", f"--log-file={mdir / 'munged.log'}",
             f"--seed-file={mdir / 'munged.seed'}", "--num-threads=2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self._wait(lambda: self.munge_socket.exists(), "munged", mdir / "munged.log")

    def _write_conf(self, cpus: int) -> None:
        state = self.dir / "state"
        spool = self.dir / "spool"
        state.mkdir()
        spool.mkdir()
        self.ctld_log = self.dir / "slurmctld.log"
        self.slurmd_log = self.dir / "slurmd.log"
        self.conf.write_text("\n".join([
            "ClusterName=mcetest",
            f"SlurmctldHost={socket.gethostname().split('.')[0]}(127.0.0.1)",  # slurmctld checks it is this host
            "MailProg=/bin/true",
            f"SlurmctldPort={free_port()}",
            f"SlurmdPort={free_port()}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={self.munge_socket}",
            f"StateSaveLocation={state}",
            f"SlurmdSpoolDir={spool}",
            f"SlurmctldPidFile={self.dir / 'slurmctld.pid'}",
            f"SlurmdPidFile={self.dir / 'slurmd.pid'}",
            f"SlurmctldLogFile={self.ctld_log}",
            f"SlurmdLogFile={self.slurmd_log}",
            "SlurmctldDebug=info",
            "SlurmdDebug=info",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "SwitchType=switch/none",
            "SchedulerType=sched/builtin",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "ReturnToService=2",
            "SlurmdTimeout=30",
            "InactiveLimit=0",
            "KillWait=5",
            "MinJobAge=5",
            f"NodeName={self.node} NodeHostname={socket.gethostname()} NodeAddr=127.0.0.1 CPUs={cpus} "
            f"RealMemory={NODE_MEMORY_MB} State=UNKNOWN",
            f"PartitionName=test Nodes={self.node} Default=YES MaxTime=10 State=UP",
            "",
        ]))

    def _start_slurm(self) -> None:
        self.procs.append(subprocess.Popen([self.programs["slurmctld"], "-D", "-i", "-f", str(self.conf)],
                                           env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self._wait(lambda: self._squeue_ok(), "slurmctld", self.ctld_log)
        self.procs.append(subprocess.Popen([self.programs["slurmd"], "-D", "-N", self.node, "-f", str(self.conf)],
                                           env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self._wait(lambda: self._node_state() in ("idle", "mixed", "allocated"), "slurmd", self.slurmd_log)

    def _squeue_ok(self) -> bool:
        return subprocess.run([self.programs["squeue"], "-h"], env=self.env, capture_output=True,
                              timeout=20).returncode == 0

    def _node_state(self) -> str:
        out = subprocess.run([self.programs["sinfo"], "-h", "-N", "-o", "%T"], env=self.env, capture_output=True,
                             text=True, timeout=20)
        return out.stdout.strip().rstrip("*~#").lower()

    def _wait(self, ready, what: str, log: Path) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while not ready():
            dead = [p for p in self.procs if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
                raise RuntimeError(f"{what} did not start: {tail}")
            time.sleep(0.2)

    def jobs(self) -> list[str]:
        out = subprocess.run([self.programs["squeue"], "-h", "-o", "%i %T"], env=self.env, capture_output=True,
                             text=True, timeout=20)
        return [line for line in out.stdout.splitlines() if line.strip()]

    def wait_idle(self, timeout: float) -> None:
        """Until no job is queued or running; on timeout cancel them all and raise."""
        deadline = time.monotonic() + timeout
        while self.jobs():
            if time.monotonic() > deadline:
                subprocess.run([self.programs["scancel"], "-u", "root"], env=self.env, capture_output=True, timeout=20)
                raise TimeoutError(f"Slurm jobs still running after {timeout} s")
            time.sleep(0.5)

    def stop(self) -> None:
        if self.procs and "scancel" in getattr(self, "programs", {}) and self.conf.exists():
            subprocess.run([self.programs["scancel"], "-u", "root"], env=self.env, capture_output=True, timeout=20)
        for p in reversed(self.procs):  # slurmd, slurmctld, munged
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.procs = []
