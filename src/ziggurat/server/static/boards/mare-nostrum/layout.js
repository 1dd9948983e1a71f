// Schematic positions of the Mare Nostrum areas (the engine's map has no coordinates):
// a rough west-to-east picture of the Mediterranean in a 1100 x 700 box.
export const W = 1100;
export const H = 700;
export const PROV = {
  gallia: [95, 95], germania: [245, 45], dalmatia: [330, 135], latium: [120, 205], italia: [250, 250],
  macedonia: [445, 215], dacia: [440, 70], thracia: [585, 140], achea: [440, 345], sicilia: [215, 405],
  numidia: [75, 505], africa: [205, 535], phasania: [85, 635], libya: [345, 560], garamantia: [250, 650],
  cyrenaica: [490, 580], nubia: [470, 665], aegyptus: [650, 590], aethiopia: [640, 670], creta: [560, 450],
  judea: [800, 545], cilicia: [830, 360], cappadocia: [850, 200], asia: [700, 290], syria: [960, 460],
  mesopotamia: [1030, 330], babylonia: [1035, 560], armenia: [990, 170], arabia: [960, 640],
};
export const SEA = {
  mare_hadriaticum: [335, 200], mare_ionium: [345, 395], mare_tyrrhenum: [70, 330], mare_sardum: [100, 420],
  mare_africum: [390, 475], mare_aegaeum: [590, 340], mare_aegyptum: [690, 460], mare_cyprium: [720, 390],
  pontus_euxinus: [720, 110],
};
export const PW = 124; // province box
export const PH = 62;
