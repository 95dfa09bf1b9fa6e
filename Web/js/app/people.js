/**
 * Who is here: a chip per person in the top bar (oneself first) and a panel listing everyone, where one
 * picks one's own display name.
 */

import { cleanName } from './identity.js';
import { Popover } from './popover.js';
import { peerColour, peerName } from './presence.js';

/** Chips shown in the bar before "+N". */
const CHIPS = 4;

/** The people chips in the top bar and the panel with one's name. */
export class PeopleView {
  /**
   * @param {{button: HTMLElement, panel: HTMLElement, identity: {name: string, colour: number},
   *   peers: () => Map<string, import('./presence.js').Peer>, onRename: (name: string) => void}} options
   */
  constructor({ button, panel, identity, peers, onRename }) {
    this.button = button;
    this.panel = panel;
    this.identity = identity;
    this.peers = peers;
    this.popover = new Popover(button, panel, { onOpen: () => this.render() });
    const input = /** @type {HTMLInputElement} */ (panel.querySelector('input[name="display-name"]'));
    input.value = identity.name;
    const commit = () => {
      const name = cleanName(input.value);
      if (name === null) {
        input.value = this.identity.name;
        return;
      }
      input.value = name;
      if (name !== this.identity.name) onRename(name);
    };
    input.addEventListener('change', commit);
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        commit();
        this.popover.close();
      }
    });
    this.render();
  }

  /** Redraws the chips and the list. */
  render() {
    const doc = this.button.ownerDocument;
    const everyone = [{ name: this.identity.name, colour: this.identity.colour, you: true }];
    for (const peer of this.peers().values()) everyone.push({ name: peerName(peer), colour: peer.colour, you: false });
    const chips = this.button.querySelector('.chips');
    chips.replaceChildren(
      ...everyone.slice(0, CHIPS).map((person) => chip(doc, person)),
      ...(everyone.length > CHIPS ? [Object.assign(doc.createElement('span'), { className: 'chip more', textContent: `+${everyone.length - CHIPS}` })] : []),
    );
    const others = everyone.length - 1;
    const summary = others === 0 ? 'Only you are here' : `You and ${others} other${others === 1 ? '' : 's'} here`;
    this.button.setAttribute('aria-label', `${summary}. Show people and your name`);
    this.button.title = summary;
    const list = this.panel.querySelector('ul');
    list.replaceChildren(
      ...everyone.map((person) => {
        const item = doc.createElement('li');
        item.append(chip(doc, person));
        const name = doc.createElement('span');
        name.textContent = person.you ? `${person.name} (you)` : person.name;
        item.append(name);
        return item;
      }),
    );
  }
}

function chip(doc, person) {
  const element = doc.createElement('span');
  element.className = person.you ? 'chip you' : 'chip';
  element.style.setProperty('--peer', peerColour(person.colour));
  element.textContent = [...person.name][0]?.toUpperCase() ?? '?';
  element.title = person.you ? `${person.name} (you)` : person.name;
  return element;
}
