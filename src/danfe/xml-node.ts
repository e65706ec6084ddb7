// The accessors moved down to fiscal/xml/ (the NFS-e reader on floor 3 uses them too); kept here
// under their old path for the DANFE readers.
export { child, children, parseXml, path, text, type XmlNode } from '../fiscal/xml/xml-node.js';
