// Issue 28, item 10: every generation without --project made a new *untitled* Flow project. A
// project a run creates is now titled — --project-name, else the prompt's first words — through
// the editor's header, as a person would; a run into an existing project renames nothing.
import { describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-28-titles', signIn: true });
const titleOf = (id: string): string | undefined =>
  e2e.sim.scenario.projectsOf(SANDBOX_EMAIL).find((p) => p.id === id)?.title;

describe('10. a project a run creates has a title', () => {
  it('no --project: the new project is titled from the prompt', async () => {
    const r = await e2e.cli(['image', 't2i', 'a red fox in fresh snow', '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(titleOf((json(r) as { flow_project_id: string }).flow_project_id)).toBe('a red fox in fresh snow');
  });

  it('--project-name titles the new project', async () => {
    const r = await e2e.cli([
      'video',
      't2v',
      'waves on a black sand beach',
      '--project-name',
      'Beach shoot',
      '--sandbox',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(titleOf((json(r) as { flow_project_id: string }).flow_project_id)).toBe('Beach shoot');
  });

  it('--project: an existing project keeps its title', async () => {
    const project = e2e.sim.scenario.createProject(SANDBOX_EMAIL, { title: 'Mine' });
    const renames = e2e.sim.received.calls('o8DA4').length;
    const r = await e2e.cli(['image', 't2i', 'a hare in the snow', '--project', project.id, '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(titleOf(project.id)).toBe('Mine');
    expect(e2e.sim.received.calls('o8DA4').length).toBe(renames);
  });

  it('--project-name asks for a new project even with GFLOW_CLI_PROJECT set', async () => {
    const usual = e2e.sim.scenario.createProject(SANDBOX_EMAIL, { title: 'Usual' });
    const r = await e2e.cli(['image', 't2i', 'an owl at dusk', '--project-name', 'Owls', '--sandbox', '--json'], {
      env: { GFLOW_CLI_PROJECT: usual.id },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const made = (json(r) as { flow_project_id: string }).flow_project_id;
    expect(made).not.toBe(usual.id);
    expect(titleOf(made)).toBe('Owls');
  });
});
