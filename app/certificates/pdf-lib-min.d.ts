// The minified ES builds of pdf-lib and fontkit (half the bytes of the default entries in the
// worker bundle) have the packages' own types.
declare module 'pdf-lib/dist/pdf-lib.esm.min.js' {
  export * from 'pdf-lib'
}
declare module '@pdf-lib/fontkit/dist/fontkit.es.min.js' {
  import fontkit from '@pdf-lib/fontkit'
  export default fontkit
}
